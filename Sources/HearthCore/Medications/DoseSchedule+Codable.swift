import Foundation

/// A schedule's pattern as the API and the database write it: one flat
/// object with a `kind`, so a device or a person reading the JSON sees
/// `{"kind": "weekly", "times": ["08:00"], "weekdays": [1, 2, 3, 4, 5, 6, 7]}`.
extension DoseSchedule.Pattern {
    public enum Kind: String, Codable, Sendable, CaseIterable {
        case weekly, everyNDays, cyclic, everyNHours, asNeeded
    }

    enum CodingKeys: String, CodingKey {
        case kind, times, weekdays, interval, daysOn, daysOff, from, until, minimumIntervalMinutes, dailyMaximum
    }

    public var kind: Kind {
        switch self {
        case .weekly: .weekly
        case .everyNDays: .everyNDays
        case .cyclic: .cyclic
        case .everyNHours: .everyNHours
        case .asNeeded: .asNeeded
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(Kind.self, forKey: .kind) {
        case .weekly:
            self = .weekly(times: try container.decode([LocalTime].self, forKey: .times),
                           weekdays: Set(try container.decodeIfPresent([Int].self, forKey: .weekdays) ?? Array(1...7)))
        case .everyNDays:
            self = .everyNDays(interval: try container.decode(Int.self, forKey: .interval),
                               times: try container.decode([LocalTime].self, forKey: .times))
        case .cyclic:
            self = .cyclic(daysOn: try container.decode(Int.self, forKey: .daysOn),
                           daysOff: try container.decode(Int.self, forKey: .daysOff),
                           times: try container.decode([LocalTime].self, forKey: .times))
        case .everyNHours:
            self = .everyNHours(interval: try container.decode(Int.self, forKey: .interval),
                                from: try container.decode(LocalTime.self, forKey: .from),
                                until: try container.decode(LocalTime.self, forKey: .until))
        case .asNeeded:
            self = .asNeeded(minimumIntervalMinutes: try container.decodeIfPresent(Int.self, forKey: .minimumIntervalMinutes),
                             dailyMaximum: try container.decodeIfPresent(Int.self, forKey: .dailyMaximum))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        switch self {
        case .weekly(let times, let weekdays):
            try container.encode(times.sorted(), forKey: .times)
            try container.encode(weekdays.sorted(), forKey: .weekdays)
        case .everyNDays(let interval, let times):
            try container.encode(interval, forKey: .interval)
            try container.encode(times.sorted(), forKey: .times)
        case .cyclic(let daysOn, let daysOff, let times):
            try container.encode(daysOn, forKey: .daysOn)
            try container.encode(daysOff, forKey: .daysOff)
            try container.encode(times.sorted(), forKey: .times)
        case .everyNHours(let interval, let from, let until):
            try container.encode(interval, forKey: .interval)
            try container.encode(from, forKey: .from)
            try container.encode(until, forKey: .until)
        case .asNeeded(let minimumIntervalMinutes, let dailyMaximum):
            try container.encodeIfPresent(minimumIntervalMinutes, forKey: .minimumIntervalMinutes)
            try container.encodeIfPresent(dailyMaximum, forKey: .dailyMaximum)
        }
    }
}

extension DoseSchedule.Pattern {
    /// The same fields `encode(to:)` writes, built directly: a medication
    /// list carries every schedule, and a Codable round trip per schedule
    /// cost more than the database read. A test keeps the two equal.
    public var json: [String: JSONValue] {
        func times(_ times: [LocalTime]) -> JSONValue { .array(times.sorted().map { .string($0.description) }) }
        func number(_ value: Int) -> JSONValue { .number(Double(value)) }
        var fields: [String: JSONValue] = ["kind": .string(kind.rawValue)]
        switch self {
        case .weekly(let list, let weekdays):
            fields["times"] = times(list)
            fields["weekdays"] = .array(weekdays.sorted().map(number))
        case .everyNDays(let interval, let list):
            fields["interval"] = number(interval)
            fields["times"] = times(list)
        case .cyclic(let daysOn, let daysOff, let list):
            fields["daysOn"] = number(daysOn)
            fields["daysOff"] = number(daysOff)
            fields["times"] = times(list)
        case .everyNHours(let interval, let from, let until):
            fields["interval"] = number(interval)
            fields["from"] = .string(from.description)
            fields["until"] = .string(until.description)
        case .asNeeded(let minimumIntervalMinutes, let dailyMaximum):
            if let minimumIntervalMinutes { fields["minimumIntervalMinutes"] = number(minimumIntervalMinutes) }
            if let dailyMaximum { fields["dailyMaximum"] = number(dailyMaximum) }
        }
        return fields
    }
}
