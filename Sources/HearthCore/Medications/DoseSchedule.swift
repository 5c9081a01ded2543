import Foundation

/// When a medication is taken, and how much: one of several patterns, from
/// a start date to an optional end date (an end date is how a dose is
/// tapered: the old schedule ends, a new one with a smaller amount starts).
public struct DoseSchedule: Hashable, Sendable, Codable {
    public enum Pattern: Hashable, Sendable, Codable {
        /// At these times on these weekdays (1 = Monday … 7 = Sunday).
        case weekly(times: [LocalTime], weekdays: Set<Int>)
        /// At these times every `interval` days, counted from the start date.
        case everyNDays(interval: Int, times: [LocalTime])
        /// At these times for `daysOn` days, then none for `daysOff`, repeating.
        case cyclic(daysOn: Int, daysOff: Int, times: [LocalTime])
        /// Every `interval` hours from `from` until `until` (inclusive), each day.
        case everyNHours(interval: Int, from: LocalTime, until: LocalTime)
        /// When needed, at most once in `minimumIntervalMinutes` and at most
        /// `dailyMaximum` times a day.
        case asNeeded(minimumIntervalMinutes: Int?, dailyMaximum: Int?)
    }

    public var id: UUID
    public var medicationId: UUID
    public var pattern: Pattern
    /// How many units (tablets, ml, drops…) one dose is.
    public var amount: Double
    public var startDate: LocalDate
    public var endDate: LocalDate?

    public init(id: UUID = UUID.random(), medicationId: UUID, pattern: Pattern, amount: Double, startDate: LocalDate, endDate: LocalDate? = nil) {
        self.id = id
        self.medicationId = medicationId
        self.pattern = pattern
        self.amount = amount
        self.startDate = startDate
        self.endDate = endDate
    }

    public static let maximumAmount = 1000.0

    /// Checks that the schedule can happen; names every field that cannot.
    public func validated() throws(HearthError) -> DoseSchedule {
        var problems: [String: String] = [:]
        if !(amount > 0 && amount <= Self.maximumAmount) { problems["amount"] = "must be more than 0 and at most 1000" }
        if let endDate, endDate < startDate { problems["endDate"] = "must not be before the start date" }
        func checkTimes(_ times: [LocalTime]) {
            if times.isEmpty { problems["times"] = "must list at least one time of day" }
            if Set(times).count != times.count { problems["times"] = "must not list a time twice" }
        }
        switch pattern {
        case .weekly(let times, let weekdays):
            checkTimes(times)
            if weekdays.isEmpty || !weekdays.isSubset(of: 1...7) { problems["weekdays"] = "must be days 1 (Monday) to 7 (Sunday), at least one" }
        case .everyNDays(let interval, let times):
            checkTimes(times)
            if !(1...365).contains(interval) { problems["interval"] = "must be 1 to 365 days" }
        case .cyclic(let daysOn, let daysOff, let times):
            checkTimes(times)
            if !(1...365).contains(daysOn) { problems["daysOn"] = "must be 1 to 365 days" }
            if !(1...365).contains(daysOff) { problems["daysOff"] = "must be 1 to 365 days" }
        case .everyNHours(let interval, let from, let until):
            if !(1...23).contains(interval) { problems["interval"] = "must be 1 to 23 hours" }
            if until < from { problems["until"] = "must not be before the first dose of the day" }
        case .asNeeded(let minimumInterval, let dailyMaximum):
            if let minimumInterval, !(1...10_080).contains(minimumInterval) {
                problems["minimumIntervalMinutes"] = "must be 1 minute to 7 days"
            }
            if let dailyMaximum, !(1...48).contains(dailyMaximum) { problems["dailyMaximum"] = "must be 1 to 48" }
        }
        if !problems.isEmpty { throw .invalid(fields: problems) }
        return self
    }

    public var isAsNeeded: Bool {
        if case .asNeeded = pattern { return true }
        return false
    }

    /// The times of day of its doses on `date` (none outside its dates).
    public func times(on date: LocalDate) -> [LocalTime] {
        guard date >= startDate, endDate.map({ date <= $0 }) ?? true else { return [] }
        let daysIn = date.dayNumber - startDate.dayNumber
        switch pattern {
        case .weekly(let times, let weekdays):
            return weekdays.contains(date.weekday) ? times.sorted() : []
        case .everyNDays(let interval, let times):
            return daysIn % interval == 0 ? times.sorted() : []
        case .cyclic(let daysOn, let daysOff, let times):
            return daysIn % (daysOn + daysOff) < daysOn ? times.sorted() : []
        case .everyNHours(let interval, let from, let until):
            return stride(from: from.minutesSinceMidnight, through: until.minutesSinceMidnight, by: interval * 60)
                .compactMap { try? LocalTime(hour: $0 / 60, minute: $0 % 60) }
        case .asNeeded:
            return []
        }
    }

    /// Every dose due at or after `start` and before `end`, in order.
    public func doses(from start: Date, to end: Date, in timeZone: TimeZone) -> [DueDose] {
        guard start < end, !isAsNeeded else { return [] }
        // A day either side: a time zone's offset can move a local day across `start`.
        let first = LocalDate(start, in: timeZone).adding(days: -1)
        let last = LocalDate(end, in: timeZone).adding(days: 1)
        var doses: [DueDose] = []
        var date = max(first, startDate)
        while date <= last, endDate.map({ date <= $0 }) ?? true {
            for time in times(on: date) {
                let due = WallClock.instant(date, time, in: timeZone)
                if due >= start, due < end {
                    doses.append(DueDose(scheduleId: id, medicationId: medicationId, date: date, time: time, due: due, amount: amount))
                }
            }
            date = date.adding(days: 1)
        }
        return doses.sorted { ($0.due, $0.time) < ($1.due, $1.time) }
    }

    /// Doses a day on average, for how long the stock lasts.
    public var dosesPerDay: Double {
        switch pattern {
        case .weekly(let times, let weekdays): return Double(times.count * weekdays.count) / 7
        case .everyNDays(let interval, let times): return Double(times.count) / Double(interval)
        case .cyclic(let daysOn, let daysOff, let times): return Double(times.count * daysOn) / Double(daysOn + daysOff)
        case .everyNHours(let interval, let from, let until):
            return Double((until.minutesSinceMidnight - from.minutesSinceMidnight) / (interval * 60) + 1)
        case .asNeeded: return 0
        }
    }
}

/// One dose a schedule says is due. `key` names it for good: the same dose
/// computed again (after a restart, by another replan) has the same key,
/// so it is recorded and reminded of once.
public struct DueDose: Hashable, Sendable {
    public var scheduleId: UUID
    public var medicationId: UUID
    /// The household's date and time it is planned for.
    public var date: LocalDate
    public var time: LocalTime
    public var due: Date
    public var amount: Double

    public init(scheduleId: UUID, medicationId: UUID, date: LocalDate, time: LocalTime, due: Date, amount: Double) {
        self.scheduleId = scheduleId
        self.medicationId = medicationId
        self.date = date
        self.time = time
        self.due = due
        self.amount = amount
    }

    public var key: String { "\(scheduleId.text)/\(date)T\(time)" }

    /// Where the dose sits in the day, as the Today page groups doses.
    public var slot: DoseSlot { DoseSlot(time) }
}

/// The parts of the day the Today page groups doses into.
public enum DoseSlot: String, Sendable, CaseIterable, Codable {
    case morning, midday, evening, night

    public init(_ time: LocalTime) {
        switch time.hour {
        case 5..<11: self = .morning
        case 11..<15: self = .midday
        case 15..<21: self = .evening
        default: self = .night
        }
    }
}
