import Foundation
import HearthCore

/// What the reminder service needs of the store, and nothing more: the
/// reminder pass, and a ring whenever a committed change may move a planned
/// dose. `HearthStore` is the one that does it (one pool, one write path,
/// one change log); a test may give the service a stand-in to watch how it
/// sleeps and wakes without SQLite.
public protocol DoseReminding: Sendable {
    /// One pass at `now` (`HearthStore.remind(at:as:)`).
    func remind(at now: Date, as reminders: PermissionPolicy.Actor) async throws -> ReminderPass
    /// Rings `signal` for each change `subscribedTo` lets through and
    /// `ringing` counts, until cancelled (`HearthStore.ringOnChanges`).
    func ringOnChanges(_ signal: WakeSignal, subscribedTo visible: @escaping @Sendable (Change) -> Bool,
                       ringing rings: (Change) -> Bool) async
}

extension HearthStore: DoseReminding {}
