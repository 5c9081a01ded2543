import Foundation

/// Something a person in the household must notice: an SOS, a dose due or
/// missed, stock running low, a clock that looks wrong. It stays until
/// someone acknowledges it; acknowledging on one device clears it on all.
public struct CareAlert: Hashable, Sendable, Codable {
    public enum Kind: String, Sendable, Codable, CaseIterable {
        case sos
        case doseDue = "dose-due"
        case doseMissed = "dose-missed"
        case lowStock = "low-stock"
        case clock
    }

    /// Whose devices sound and show the banner.
    public enum Audience: String, Sendable, Codable {
        /// The senior the alert is about (a dose is due).
        case senior
        /// Every caregiver linked to the senior (SOS, a missed dose, low stock).
        case caregivers
        /// Admins and caregivers (the hub's clock).
        case keepers
    }

    public var id: UUID
    public var kind: Kind
    public var audience: Audience
    /// The senior it is about; nil for the hub's own alerts (clock).
    public var personId: UUID?
    public var doseId: UUID?
    public var medicationId: UUID?
    /// Who raised it: "hub" for reminders, or a device.
    public var raisedBy: String
    public var raisedAt: Date
    /// When devices were last told (a due dose repeats every few minutes).
    public var notifiedAt: Date
    public var repeats: Int
    /// Shown with it: the medicine's name, the due time, the clock's readings…
    public var details: JSONValue
    public var acknowledgedAt: Date?
    public var acknowledgedBy: UUID?
    /// For an SOS: the caregiver who said "I'm on my way".
    public var respondedAt: Date?
    public var respondedBy: UUID?
    /// When it stopped needing anyone: the dose was answered, stock refilled.
    public var resolvedAt: Date?

    public init(id: UUID = UUID.random(), kind: Kind, audience: Audience, personId: UUID?, doseId: UUID? = nil, medicationId: UUID? = nil,
                raisedBy: String, raisedAt: Date, notifiedAt: Date? = nil, repeats: Int = 0, details: JSONValue = [:],
                acknowledgedAt: Date? = nil, acknowledgedBy: UUID? = nil, respondedAt: Date? = nil, respondedBy: UUID? = nil,
                resolvedAt: Date? = nil) {
        self.id = id
        self.kind = kind
        self.audience = audience
        self.personId = personId
        self.doseId = doseId
        self.medicationId = medicationId
        self.raisedBy = raisedBy
        self.raisedAt = raisedAt
        self.notifiedAt = notifiedAt ?? raisedAt
        self.repeats = repeats
        self.details = details
        self.acknowledgedAt = acknowledgedAt
        self.acknowledgedBy = acknowledgedBy
        self.respondedAt = respondedAt
        self.respondedBy = respondedBy
        self.resolvedAt = resolvedAt
    }

    /// Still showing: nobody acknowledged it and it has not resolved itself.
    public var isOpen: Bool { acknowledgedAt == nil && resolvedAt == nil }

    /// An SOS its own senior closed before anyone answered it ("Cancel the
    /// call"): she is all right, which her caregivers are told rather than
    /// having it just vanish. Her "OK" after someone said "I'm on my way"
    /// only says she saw who is coming: that is no cancelling.
    public var isCancelledByItsSenior: Bool {
        kind == .sos && acknowledgedAt != nil && respondedAt == nil && personId != nil && acknowledgedBy == personId
    }
}
