import Foundation
import GRDB
import HearthCore

/// An alert app's credential that signed in, with who it reads alerts as.
public struct SignedInAlertApp: Sendable, Hashable {
    public var app: AlertApp
    public var person: Person
    /// Who the permission policy sees: the credential's person.
    public var actor: PermissionPolicy.Actor
    /// Signs and checks the links of its messages' buttons (AlertActionLink, HMAC-SHA-256): 32 random bytes.
    public var actionKey: Data

    public static func == (a: Self, b: Self) -> Bool { a.app == b.app && a.actor == b.actor }
    public func hash(into hasher: inout Hasher) { hasher.combine(app.id) }
}

extension HearthStore {
    /// Makes a credential for an alert app on the acting person's phone.
    /// Returns it with its password, which is not kept and never shown again.
    public func createAlertApp(name: String, as maker: PermissionPolicy.Actor, by origin: String) async throws -> (AlertApp, password: String) {
        let validName = try AlertApp.validatedName(name)
        let password = AlertApp.generatePassword()
        var random = SystemRandomNumberGenerator()
        let actionKey = Data((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &random) })
        return try await write(by: origin) { transaction in
            try PermissionPolicy.require(maker, .create, .device(owner: maker.personId), what: "That person")
            guard let person = try Self.person(id: maker.personId, transaction.db), person.archivedAt == nil else {
                throw HearthError.notFound(what: "That person")
            }
            var username = AlertApp.generateUsername()
            while try Bool.fetchOne(transaction.db.cachedStatement(sql: "SELECT 1 FROM alert_apps WHERE username = ?"),
                                    arguments: [username]) == true {
                username = AlertApp.generateUsername()
            }
            let app = AlertApp(id: UUID.random(), personId: person.id, name: validName, username: username, createdAt: transaction.time)
            try transaction.db.cachedExecute(sql: """
                INSERT INTO alert_apps (id, personId, name, username, passwordHash, actionKey, createdAt) VALUES (?, ?, ?, ?, ?, ?, ?)
                """, arguments: [app.id.text, app.personId.text, app.name, app.username, SecretHash.of(password), actionKey,
                                 app.createdAt.millisecondsSince1970])
            try transaction.record(entity: .alertApp, entityId: app.id.text, op: .create, payload: app.json)
            return (app, password)
        }
    }

    /// Credentials not revoked: all of them for an admin (the household page
    /// lists them beside each person's devices), one's own for anyone else.
    public func alertApps(visibleTo reader: PermissionPolicy.Actor) async throws -> [AlertApp] {
        try await pool.read { db in
            try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM alert_apps WHERE revokedAt IS NULL ORDER BY createdAt"))
                .map(Self.alertApp(from:))
                .filter { PermissionPolicy.decide(reader, .view, .device(owner: $0.personId)) == .allow }
        }
    }

    /// Revokes a credential, if `revoker` may (its person or an admin); the
    /// phone's open streams close when the change is published.
    public func revokeAlertApp(id: UUID, as revoker: PermissionPolicy.Actor, by origin: String) async throws {
        try await write(by: origin) { transaction in
            guard let row = try Row.fetchOne(transaction.db.cachedStatement(sql: "SELECT * FROM alert_apps WHERE id = ? AND revokedAt IS NULL"),
                                             arguments: [id.text]) else {
                throw HearthError.notFound(what: "That alert app")
            }
            var app = try Self.alertApp(from: row)
            try PermissionPolicy.require(revoker, .delete, .device(owner: app.personId), what: "That alert app")
            try Self.revoke(&app, in: &transaction)
        }
    }

    /// Revokes every credential of a person (archived: gone from the household).
    static func revokeAlertApps(of personId: UUID, in transaction: inout WriteTransaction) throws {
        for row in try Row.fetchAll(transaction.db.cachedStatement(sql: "SELECT * FROM alert_apps WHERE personId = ? AND revokedAt IS NULL"),
                                    arguments: [personId.text]) {
            var app = try alertApp(from: row)
            try revoke(&app, in: &transaction)
        }
    }

    static func revoke(_ app: inout AlertApp, in transaction: inout WriteTransaction) throws {
        app.revokedAt = transaction.time
        try transaction.db.cachedExecute(sql: "UPDATE alert_apps SET revokedAt = ? WHERE id = ?",
                                         arguments: [transaction.time.millisecondsSince1970, app.id.text])
        try transaction.record(entity: .alertApp, entityId: app.id.text, op: .update, payload: app.json)
    }

    /// The credential these words name, if it is not revoked and its person
    /// is in the household; nil for anything else, whichever part was wrong.
    public func alertAppSignIn(username: String, password: String) async throws -> SignedInAlertApp? {
        let hash = SecretHash.of(password)
        let found = try await pool.read { db -> (SignedInAlertApp, Data)? in
            guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM alert_apps WHERE username = ? AND revokedAt IS NULL"),
                                             arguments: [username]) else { return nil }
            return try Self.signedIn(row, db).map { ($0, row["passwordHash"]) }
        }
        // Compared in constant time: how long a refusal takes says nothing of the hash.
        guard let (signedIn, stored) = found, stored.count == hash.count,
              zip(stored, hash).reduce(0, { $0 | ($1.0 ^ $1.1) }) == 0 else { return nil }
        try await noteAlertAppSeen(signedIn.app)
        return signedIn
    }

    /// The credential with this id, for checking a button's link it signed.
    public func alertApp(id: UUID) async throws -> SignedInAlertApp? {
        try await pool.read { db in
            guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM alert_apps WHERE id = ? AND revokedAt IS NULL"),
                                             arguments: [id.text]) else { return nil }
            return try Self.signedIn(row, db)
        }
    }

    static func signedIn(_ row: Row, _ db: Database) throws -> SignedInAlertApp? {
        let app = try alertApp(from: row)
        guard let person = try person(id: app.personId, db), person.archivedAt == nil else { return nil }
        let actor = try Self.actor(for: person, db)
        return SignedInAlertApp(app: app, person: person, actor: actor, actionKey: row["actionKey"] as Data)
    }

    /// "Last seen" for the household page, written at most every few
    /// minutes and outside the change log: it is bookkeeping, not news.
    private func noteAlertAppSeen(_ app: AlertApp) async throws {
        let now = currentTime()
        guard app.lastSeenAt.map({ now.timeIntervalSince($0) >= Self.lastSeenGranularity }) ?? true else { return }
        try await writeOutsideChangeLog { db in
            try db.execute(sql: "UPDATE alert_apps SET lastSeenAt = ? WHERE id = ?", arguments: [now.millisecondsSince1970, app.id.text])
        }
    }

    static func alertApp(from row: Row) throws -> AlertApp {
        guard let id = UUID(text: row["id"]), let personId = UUID(text: row["personId"]) else {
            throw DatabaseError(message: "alert_apps row \(row["id"] as String) is damaged")
        }
        return AlertApp(id: id, personId: personId, name: row["name"], username: row["username"],
                        createdAt: Date(millisecondsSince1970: row["createdAt"]),
                        lastSeenAt: (row["lastSeenAt"] as Int64?).map(Date.init(millisecondsSince1970:)),
                        revokedAt: (row["revokedAt"] as Int64?).map(Date.init(millisecondsSince1970:)))
    }
}
