import Foundation
import HearthCore

/// A schedule as a client sends it: the pattern's flat fields
/// (`{"kind": "weekly", "times": ["08:00"], "weekdays": [1, 2, 3]}`) with the
/// amount and dates beside them. Times and dates arrive as text and are read
/// here, so a wrong one is reported under its own field ("times", not "time")
/// together with every other problem of the schedule, in one answer.
struct ScheduleBody: Decodable, Sendable {
    var kind: DoseSchedule.Pattern.Kind
    var times: [String]?
    /// 1 = Monday … 7 = Sunday; every day when absent.
    var weekdays: [Int]?
    /// Days for everyNDays, hours for everyNHours.
    var interval: Int?
    var daysOn: Int?
    var daysOff: Int?
    var from: String?
    var until: String?
    var minimumIntervalMinutes: Int?
    var dailyMaximum: Int?
    /// Units per dose; required, since a wrong default would be a wrong dose.
    var amount: Double?
    /// `YYYY-MM-DD`; today in the household when absent.
    var startDate: String?
    var endDate: String?

    /// The schedule this body describes, checked by `DoseSchedule.validated()`.
    /// Every problem is named under `prefix` (e.g. "schedules.0."), so the
    /// schedules of a new medication are told apart.
    func schedule(medicationId: UUID, today: LocalDate, prefix: String = "") throws(HearthError) -> DoseSchedule {
        var problems: [String: String] = [:]
        func time(_ text: String?, _ field: String) -> LocalTime? {
            guard let text else {
                problems[field] = "is required"
                return nil
            }
            guard let time = try? LocalTime(text) else {
                problems[field] = "must be a time of day from 00:00 to 23:59, written as HH:MM"
                return nil
            }
            return time
        }
        func times() -> [LocalTime] {
            let parsed = (self.times ?? []).map { try? LocalTime($0) }
            if parsed.contains(nil) {
                problems["times"] = "must be times of day from 00:00 to 23:59, written as HH:MM"
            }
            return parsed.compactMap(\.self)
        }
        func required(_ value: Int?, _ field: String) -> Int {
            if value == nil { problems[field] = "is required" }
            return value ?? 0
        }
        func date(_ text: String?, _ field: String) -> LocalDate? {
            guard let text else { return nil }
            guard let date = try? LocalDate(text) else {
                problems[field] = "must be a date written as YYYY-MM-DD"
                return nil
            }
            return date
        }

        let pattern: DoseSchedule.Pattern
        switch kind {
        case .weekly:
            pattern = .weekly(times: times(), weekdays: Set(weekdays ?? Array(1...7)))
        case .everyNDays:
            pattern = .everyNDays(interval: required(interval, "interval"), times: times())
        case .cyclic:
            pattern = .cyclic(daysOn: required(daysOn, "daysOn"), daysOff: required(daysOff, "daysOff"), times: times())
        case .everyNHours:
            let first = time(from, "from"), last = time(until, "until")
            pattern = .everyNHours(interval: required(interval, "interval"),
                                   from: first ?? CareQuery.midnight, until: last ?? first ?? CareQuery.midnight)
        case .asNeeded:
            pattern = .asNeeded(minimumIntervalMinutes: minimumIntervalMinutes, dailyMaximum: dailyMaximum)
        }
        if amount == nil { problems["amount"] = "is required" }
        let start = date(startDate, "startDate") ?? today
        let end = date(endDate, "endDate")
        let draft = DoseSchedule(medicationId: medicationId, pattern: pattern, amount: amount ?? 1, startDate: start, endDate: end)
        do {
            _ = try draft.validated()
        } catch {
            if case .invalid(let fields) = error {
                // What was read wrong above says more than the rule it then broke.
                problems.merge(fields) { own, _ in own }
            }
        }
        guard problems.isEmpty else {
            throw .invalid(fields: Dictionary(uniqueKeysWithValues: problems.map { (prefix + $0.key, $0.value) }))
        }
        return draft
    }
}
