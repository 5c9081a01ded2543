import Foundation

/// A phone, tablet or app paired to the hub. It acts as the person it
/// belongs to; its token is shown to it once and kept only as a hash.
public struct Device: Sendable, Hashable, Codable {
    public var id: UUID
    public var personId: UUID
    public var name: String
    public var createdAt: Date
    public var lastSeenAt: Date?
    public var userAgent: String?
    public var revokedAt: Date?
    /// The person whose device made the pairing code this device was paired
    /// with; nil when it was made at the hub's console (`sudo hearth pair`).
    /// An admin sees it, so a device a senior's tablet added is not a
    /// stranger in the list.
    public var pairedBy: UUID?
    /// Paired from a senior's invitation while the household asks an admin
    /// to approve such devices; it can do nothing until one does.
    public var awaitingApproval: Bool

    public init(id: UUID, personId: UUID, name: String, createdAt: Date, lastSeenAt: Date? = nil, userAgent: String? = nil,
                revokedAt: Date? = nil, pairedBy: UUID? = nil, awaitingApproval: Bool = false) {
        self.id = id
        self.personId = personId
        self.name = name
        self.createdAt = createdAt
        self.lastSeenAt = lastSeenAt
        self.userAgent = userAgent
        self.revokedAt = revokedAt
        self.pairedBy = pairedBy
        self.awaitingApproval = awaitingApproval
    }

    public static let maximumNameLength = 60

    public static func validatedName(_ raw: String, field: String = "deviceName") throws(HearthError) -> String {
        try NameRule.validated(raw, field: field, maximumLength: maximumNameLength)
    }

    /// A new bearer token: 256 bits from the system's cryptographic random source.
    public static func generateToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return RandomText.base64URL((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }
}

/// Random secrets as URL- and cookie-safe text.
enum RandomText {
    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
