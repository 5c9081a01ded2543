import Foundation

/// A dose as recorded: one planned by a schedule (with the `key` of its
/// `DueDose`), or an as-needed dose taken on demand.
public struct Dose: Hashable, Sendable, Codable {
    public enum Status: String, Sendable, Codable, CaseIterable {
        /// Due now; the senior is being reminded.
        case due
        /// Put off until `snoozedUntil`.
        case snoozed
        case taken
        case skipped
        /// Nobody answered within the grace period; caregivers were told.
        case missed

        /// Whether someone answered it.
        public var isAnswered: Bool { self == .taken || self == .skipped }
    }

    public var id: UUID
    /// `DueDose.key` for a scheduled dose; nil for an as-needed one.
    public var key: String?
    public var medicationId: UUID
    public var personId: UUID
    public var scheduleId: UUID?
    /// When it was planned (nil for as-needed).
    public var dueAt: Date?
    public var plannedDate: LocalDate?
    public var plannedTime: LocalTime?
    public var amount: Double
    public var status: Status
    /// When it was actually taken, as recorded (editable later).
    public var takenAt: Date?
    /// Why it was skipped, or why an as-needed limit was overridden.
    public var reason: String?
    public var snoozedUntil: Date?
    /// The person who recorded it (the senior, or a caregiver giving it).
    public var recordedBy: UUID?
    /// Set when a caregiver recorded an as-needed dose past its limits.
    public var limitOverridden: Bool
    public var missedAt: Date?
    /// Who last put it right (changed taken ↔ skipped, the time, or took the
    /// answer back), and when; nil while it stands as first recorded.
    public var correctedBy: UUID?
    public var correctedAt: Date?
    public var createdAt: Date
    public var updatedAt: Date

    public init(id: UUID = UUID.random(), key: String?, medicationId: UUID, personId: UUID, scheduleId: UUID?, dueAt: Date?,
                plannedDate: LocalDate?, plannedTime: LocalTime?, amount: Double, status: Status, takenAt: Date? = nil,
                reason: String? = nil, snoozedUntil: Date? = nil, recordedBy: UUID? = nil, limitOverridden: Bool = false,
                missedAt: Date? = nil, correctedBy: UUID? = nil, correctedAt: Date? = nil, createdAt: Date, updatedAt: Date) {
        self.id = id
        self.key = key
        self.medicationId = medicationId
        self.personId = personId
        self.scheduleId = scheduleId
        self.dueAt = dueAt
        self.plannedDate = plannedDate
        self.plannedTime = plannedTime
        self.amount = amount
        self.status = status
        self.takenAt = takenAt
        self.reason = reason
        self.snoozedUntil = snoozedUntil
        self.recordedBy = recordedBy
        self.limitOverridden = limitOverridden
        self.missedAt = missedAt
        self.correctedBy = correctedBy
        self.correctedAt = correctedAt
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// The snooze lengths offered, in minutes.
    public static let snoozeChoices = [10, 30, 60]
    public static let maximumReasonLength = 500
}
