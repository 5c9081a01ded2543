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
