import Foundation

/// When a dose counts as taken late: the one rule the alert history and
/// History both say it by, so a caregiver never reads "on time" in one and
/// "late" in the other.
extension ReminderSettings {
    /// The moment a dose counts as missed when nobody has answered it:
    /// `start` (its planned time, or the end of a "Later") plus the
    /// household's grace minutes. The reminder service waits until then.
    public func missedFrom(_ start: Date) -> Date {
        start.addingTimeInterval(grace)
    }

    /// Whether `dose` was taken late: a planned dose taken after the moment
    /// it would have counted as missed from its planned time. Judged by when
    /// it was taken as recorded now (a correction to "taken at 08:05" makes
    /// a dose marked missed on time after all), and by the household's
    /// settings as they are now. A "Later" does not move it: a dose put off
    /// past its grace was still taken late. As-needed doses are never late.
    public func isTakenLate(_ dose: Dose) -> Bool {
        guard dose.status == .taken, let due = dose.dueAt, let takenAt = dose.takenAt else { return false }
        return takenAt > missedFrom(due)
    }
}

extension Dose {
    /// The dose as the doses API answers it: its JSON with `takenLate`,
    /// judged by `settings`, so History counts it by the rule above rather
    /// than one of its own.
    public func json(judgedBy settings: ReminderSettings) -> JSONValue {
        json.setting("takenLate", .bool(settings.isTakenLate(self)))
    }
}
