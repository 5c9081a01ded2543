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

    /// How many days before a schedule was entered its doses are still
    /// planned: a medicine started this morning (or yesterday) and added in
    /// the evening.
    public static let plannedBeforeEntryDays = 1

    /// The doses a schedule's *first* version plans from its start date
    /// (at most `plannedBeforeEntryDays` before the day it was entered) up
    /// to the moment it was entered. Today shows them, to be answered; the
    /// reminder service never reminds of them nor counts them missed, as the
    /// hub did not know of them in time.
    public func dosesBeforeEntry(from start: Date, to end: Date, in timeZone: TimeZone) -> [DueDose] {
        let entryDay = LocalDate(activeFrom, in: timeZone)
        let firstDay = max(schedule.startDate, entryDay.adding(days: -Self.plannedBeforeEntryDays))
        guard firstDay <= entryDay, let midnight = try? LocalTime(hour: 0, minute: 0) else { return [] }
        let start = max(start, WallClock.instant(firstDay, midnight, in: timeZone))
        let end = min(end, activeFrom, activeUntil ?? activeFrom)
        guard start < end else { return [] }
        return schedule.doses(from: start, to: end, in: timeZone)
    }
}
