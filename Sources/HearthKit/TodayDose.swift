import Foundation
import HearthCore

/// One planned dose of a day, as this device has it: planned by the
/// medication's schedule, answered by whoever recorded it (here or elsewhere).
public struct TodayDose: Sendable, Hashable, Identifiable {
    public enum Status: String, Sendable, Hashable {
        /// Not answered yet.
        case planned
        case taken, skipped
        /// The hub marked it missed.
        case missed
    }

    /// The dose's key (`<scheduleId>/<date>T<time>`), the same on every device.
    public var key: String
    public var id: String { key }
    public var medicationId: UUID
    public var medicationName: String
    public var personId: UUID?
    public var date: LocalDate
    public var time: LocalTime
    public var amount: Double
    public var status: Status
    public var takenAt: Date?
    /// Answered on this device and not yet confirmed by the hub.
    public var waitingToSync: Bool
}
