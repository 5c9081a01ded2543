import Foundation

/// A schedule as it stood for a stretch of time. Editing a schedule ends its
/// current version at that moment and starts a new one, so doses already due
/// keep the plan they were due under and later ones follow the new plan.
public struct ScheduleVersion: Hashable, Sendable {
    public var schedule: DoseSchedule
    public var activeFrom: Date
    /// nil while it is the schedule's current version.
    public var activeUntil: Date?

    public init(schedule: DoseSchedule, activeFrom: Date, activeUntil: Date? = nil) {
        self.schedule = schedule
        self.activeFrom = activeFrom
        self.activeUntil = activeUntil
    }

    /// The doses this version is responsible for between `start` and `end`.
    public func doses(from start: Date, to end: Date, in timeZone: TimeZone) -> [DueDose] {
        let start = max(start, activeFrom)
        let end = activeUntil.map { min(end, $0) } ?? end
        return schedule.doses(from: start, to: end, in: timeZone)
    }
}
