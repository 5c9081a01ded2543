import Foundation

/// How persistent reminders are; per household.
public struct ReminderSettings: Hashable, Sendable, Codable {
    /// Minutes after a dose is due (or a snooze ends) before it counts as
    /// missed and caregivers are told.
    public var graceMinutes: Int
    /// Minutes between repeated reminders of a dose still due.
    public var repeatMinutes: Int

    public init(graceMinutes: Int = 30, repeatMinutes: Int = 10) {
        self.graceMinutes = graceMinutes
        self.repeatMinutes = repeatMinutes
    }

    public func validated() throws(HearthError) -> ReminderSettings {
        var problems: [String: String] = [:]
        if !(1...720).contains(graceMinutes) { problems["graceMinutes"] = "must be 1 to 720 minutes" }
        if !(1...240).contains(repeatMinutes) { problems["repeatMinutes"] = "must be 1 to 240 minutes" }
        if !problems.isEmpty { throw .invalid(fields: problems) }
        return self
    }

    var grace: TimeInterval { TimeInterval(graceMinutes * 60) }
    var repeatInterval: TimeInterval { TimeInterval(repeatMinutes * 60) }
}

/// What the reminder service does about one planned dose at a moment, and
/// when it must look at it again. Pure, so every rule is tested on its own
/// and a simulated month runs in a second.
public enum ReminderRules {
    /// A planned dose as the database has it, if it has it at all.
    public struct Recorded: Hashable, Sendable {
        public var status: Dose.Status
        public var snoozedUntil: Date?
        /// When the senior's devices were last reminded of it.
        public var remindedAt: Date?

        public init(status: Dose.Status, snoozedUntil: Date? = nil, remindedAt: Date? = nil) {
            self.status = status
            self.snoozedUntil = snoozedUntil
            self.remindedAt = remindedAt
        }
    }

    public enum Action: Hashable, Sendable {
        case nothing
        /// It has fallen due: record it as due and remind the senior.
        case raiseDue
        /// Still due (or a snooze ended): remind the senior again.
        case remindAgain
        /// Nobody answered in time: record it missed and tell the caregivers.
        case markMissed
    }

    public struct Step: Hashable, Sendable {
        public var action: Action
        /// When to look at this dose next; nil when it needs nothing more.
        public var nextCheck: Date?

        public init(action: Action, nextCheck: Date?) {
            self.action = action
            self.nextCheck = nextCheck
        }
    }

    public static func step(for dose: DueDose, recorded: Recorded?, at now: Date, settings: ReminderSettings) -> Step {
        guard let recorded else {
            if now < dose.due { return Step(action: .nothing, nextCheck: dose.due) }
            let deadline = settings.missedFrom(dose.due)
            if now >= deadline { return Step(action: .markMissed, nextCheck: nil) }
            return Step(action: .raiseDue, nextCheck: min(now.addingTimeInterval(settings.repeatInterval), deadline))
        }
        switch recorded.status {
        case .taken, .skipped, .missed:
            return Step(action: .nothing, nextCheck: nil)
        case .snoozed:
            let until = recorded.snoozedUntil ?? dose.due
            if now < until { return Step(action: .nothing, nextCheck: until) }
            let deadline = settings.missedFrom(max(until, dose.due))
            if now >= deadline { return Step(action: .markMissed, nextCheck: nil) }
            return Step(action: .remindAgain, nextCheck: min(now.addingTimeInterval(settings.repeatInterval), deadline))
        case .due:
            let deadline = settings.missedFrom(max(recorded.snoozedUntil ?? dose.due, dose.due))
            if now >= deadline { return Step(action: .markMissed, nextCheck: nil) }
            let nextReminder = (recorded.remindedAt ?? dose.due).addingTimeInterval(settings.repeatInterval)
            if now >= nextReminder {
                return Step(action: .remindAgain, nextCheck: min(now.addingTimeInterval(settings.repeatInterval), deadline))
            }
            return Step(action: .nothing, nextCheck: min(nextReminder, deadline))
        }
    }
}
