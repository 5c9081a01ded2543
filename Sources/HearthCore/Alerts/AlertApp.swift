import Foundation

/// A credential a person gives an alert app on their phone (the ntfy app):
/// a username and password that may only read that person's alerts and
/// press their buttons. The password is shown once and kept only as a hash,
/// like a device's token; revoking it ends the phone's open streams.
public struct AlertApp: Sendable, Hashable, Codable {
    public var id: UUID
    public var personId: UUID
    /// What the person called it: "Anna's phone".
    public var name: String
    /// What the app sends as its user name; unique in the household.
    public var username: String
    public var createdAt: Date
    /// When an app last read alerts with it.
    public var lastSeenAt: Date?
    public var revokedAt: Date?

    public init(id: UUID, personId: UUID, name: String, username: String, createdAt: Date, lastSeenAt: Date? = nil,
                revokedAt: Date? = nil) {
        self.id = id
        self.personId = personId
        self.name = name
        self.username = username
        self.createdAt = createdAt
        self.lastSeenAt = lastSeenAt
        self.revokedAt = revokedAt
    }

    public static let maximumNameLength = 60

    public static func validatedName(_ raw: String) throws(HearthError) -> String {
        try NameRule.validated(raw, field: "name", maximumLength: maximumNameLength)
    }

    /// A user name a person can type into the app: "hearth-" and eight
    /// lower-case letters and digits, without ones that look alike.
    public static func generateUsername() -> String {
        let alphabet = Array("abcdefghjkmnpqrstuvwxyz23456789")
        var generator = SystemRandomNumberGenerator()
        return "hearth-" + String((0..<8).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
    }

    /// The password: 256 random bits, as the app's password field takes any text.
    public static func generatePassword() -> String { Device.generateToken() }

    /// What the change log and the API say of it: never the password.
    public var json: JSONValue {
        [
            "id": .string(id.text), "personId": .string(personId.text), "name": .string(name), "username": .string(username),
            "createdAt": .of(createdAt), "lastSeenAt": .of(lastSeenAt), "revokedAt": .of(revokedAt),
        ]
    }
}
