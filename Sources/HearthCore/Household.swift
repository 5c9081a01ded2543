import Foundation

/// The one household a hub serves.
public struct Household: Sendable, Hashable, Codable {
    public var id: UUID
    public var name: String
    /// IANA identifier, e.g. "Europe/Warsaw"; dose times are computed in it.
    public var timeZone: String
    /// What the hub's alerts and voice say their words in.
    public var language: HouseholdLanguage
    public var createdAt: Date

    public init(id: UUID, name: String, timeZone: String, language: HouseholdLanguage = .english, createdAt: Date) {
        self.id = id
        self.name = name
        self.timeZone = timeZone
        self.language = language
        self.createdAt = createdAt
    }

    public static let maximumNameLength = 100

    /// Checks a proposed name; returns it trimmed.
    public static func validatedName(_ raw: String) throws(HearthError) -> String {
        try NameRule.validated(raw, field: "name", maximumLength: maximumNameLength)
    }

    /// Checks that an IANA time zone identifier is known to this system.
    public static func validatedTimeZone(_ raw: String) throws(HearthError) -> String {
        guard !raw.isEmpty, TimeZone(identifier: raw) != nil else {
            throw .invalid(fields: ["timeZone": "is not a known IANA time zone (for example Europe/Warsaw)"])
        }
        return raw
    }
}
