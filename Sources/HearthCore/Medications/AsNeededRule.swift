import Foundation

/// Whether an as-needed (PRN) dose may be taken now, given when it was
/// taken before: not sooner than its minimum interval, not more often than
/// its daily maximum (a day being the household's calendar day).
public enum AsNeededRule {
    public enum Verdict: Equatable, Sendable {
        case allowed
        case tooSoon(nextAllowed: Date)
        case dailyMaximumReached(maximum: Int)
    }

    public static func check(
        minimumIntervalMinutes: Int?, dailyMaximum: Int?, takenAt previous: [Date], at now: Date, in timeZone: TimeZone
    ) -> Verdict {
        if let minutes = minimumIntervalMinutes, let last = previous.filter({ $0 <= now }).max() {
            let next = last.addingTimeInterval(TimeInterval(minutes * 60))
            if now < next { return .tooSoon(nextAllowed: next) }
        }
        if let maximum = dailyMaximum {
            let today = LocalDate(now, in: timeZone)
            if previous.filter({ LocalDate($0, in: timeZone) == today }).count >= maximum {
                return .dailyMaximumReached(maximum: maximum)
            }
        }
        return .allowed
    }
}

/// How many days a medication's stock lasts at its schedules' pace.
public enum StockForecast {
    /// nil when nothing is taken on a schedule (only as needed, or no schedule).
    public static func daysRemaining(stock: Double, schedules: [DoseSchedule]) -> Double? {
        let perDay = schedules.reduce(0) { $0 + $1.amount * $1.dosesPerDay }
        guard perDay > 0 else { return nil }
        return max(0, stock) / perDay
    }
}
