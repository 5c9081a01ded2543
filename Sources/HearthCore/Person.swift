import Foundation

/// Someone in the household. Every device belongs to one person, and what a
/// device may do follows from that person's role and care links.
public struct Person: Sendable, Hashable, Codable {
    public enum Role: String, Sendable, Codable, CaseIterable {
        /// The cared-for person.
        case senior
        /// Family or a nurse looking after one or more seniors.
        case caregiver
        /// A caregiver who may also manage people, devices and settings.
        case admin
    }

    public var id: UUID
    public var name: String
    public var role: Role
    public var createdAt: Date
    /// Archived people keep their history but can no longer use the hub.
    public var archivedAt: Date?
    /// A number to call them on, as they wrote it ("+48 601 234 567"); the
    /// household sees it, as it sees names, so a caregiver can be called
    /// from an SOS.
    public var phone: String?
    /// A senior who adds, changes and stops her own medications and their
    /// schedules (an admin's choice, per senior); otherwise her caregivers do.
    public var managesOwnMedications: Bool

    public init(id: UUID, name: String, role: Role, createdAt: Date, archivedAt: Date? = nil, phone: String? = nil,
                managesOwnMedications: Bool = false) {
        self.id = id
        self.name = name
        self.role = role
        self.createdAt = createdAt
        self.archivedAt = archivedAt
        self.phone = phone
        self.managesOwnMedications = managesOwnMedications
    }

    public static let maximumNameLength = 80

    public static func validatedName(_ raw: String) throws(HearthError) -> String {
        try NameRule.validated(raw, field: "name", maximumLength: maximumNameLength)
    }

    /// A caregiver's own name for a senior ("Mama"): the same rule, as `alias`.
    public static func validatedAlias(_ raw: String) throws(HearthError) -> String {
        try NameRule.validated(raw, field: "alias", maximumLength: maximumNameLength)
    }
}
