import Foundation
import GRDB
import HearthCore

/// A person's choice of how she is told away from home, with her secret
/// push topic once she chose push (nil before).
public struct AwayRecord: Hashable, Sendable {
    public var choice: AwayChoice
    public var pushTopic: String?

    public init(choice: AwayChoice, pushTopic: String?) {
        self.choice = choice
        self.pushTopic = pushTopic
    }
}

extension HearthStore {
    /// Her away choice, for herself or an admin; anyone else is told there
    /// is no such person (404), as for an archived one.
    public func awayChoice(of personId: UUID, visibleTo actor: PermissionPolicy.Actor) async throws -> AwayRecord {
        try await pool.read { db in
            try Self.awayOwner(personId, for: .view, as: actor, db)
            return try Self.awayRecord(of: personId, db)
        }
    }

    /// Sets her away choice. Choosing push the first time makes her secret
    /// topic; `newPushTopic` makes a new one (the old stops at once: a phone
    /// she lost, or a link she shared by mistake). The log carries the
    /// choice, never the topic.
    public func setAwayChoice(of personId: UUID, _ choice: AwayChoice, newPushTopic: Bool = false,
                              as editor: PermissionPolicy.Actor, by origin: String) async throws -> AwayRecord {
        try await write(by: origin) { transaction in
            let db = transaction.db
            try Self.awayOwner(personId, for: .edit, as: editor, db)
            let current = try Self.awayRecord(of: personId, db)
            var topic = current.pushTopic
            if (choice.push && topic == nil) || newPushTopic { topic = AwayChoice.newPushTopic() }
            let next = AwayRecord(choice: choice, pushTopic: topic)
            guard next != current else { return current }
            try db.cachedExecute(sql: """
                INSERT INTO away_choices (personId, sms, push, pushTopic) VALUES (?, ?, ?, ?)
                ON CONFLICT (personId) DO UPDATE SET sms = excluded.sms, push = excluded.push, pushTopic = excluded.pushTopic
                """, arguments: [personId.text, choice.sms, choice.push, topic])
            var payload: JSONValue = ["personId": .string(personId.text), "sms": .bool(choice.sms), "push": .bool(choice.push)]
            if topic != current.pushTopic, current.pushTopic != nil { payload = payload.setting("pushTopicRenewed", .bool(true)) }
            try transaction.record(entity: .awayChoice, entityId: personId.text, op: .update, payload: payload)
            return next
        }
    }

    /// Her secret topic on the Internet push server, for the escalation
    /// service to publish to: nil when she has none (never chose push, or
    /// archived). Read at each push, so a topic made anew is used at once.
    public func pushTopic(of personId: UUID) async throws -> String? {
        try await pool.read { db in try Self.awayRecord(of: personId, db).pushTopic }
    }

    /// How long a missed dose and an unanswered SOS wait before they are
    /// sent away from home; anyone paired may read them (Settings says them).
    public func escalationSettings() async throws -> EscalationSettings {
        try await pool.read { db in try Self.escalationSettings(db) }
    }

    /// Sets them (admins only); the log says both numbers.
    public func setEscalationSettings(_ settings: EscalationSettings, as editor: PermissionPolicy.Actor,
                                      by origin: String) async throws -> EscalationSettings {
        let settings = try settings.validated()
        return try await write(by: origin) { transaction in
            try PermissionPolicy.require(editor, .edit, .household, what: "The household")
            guard let household = try Self.household(transaction.db) else { throw HearthError.notFound(what: "The household") }
            guard try Self.escalationSettings(transaction.db) != settings else { return settings }
            try transaction.db.cachedExecute(sql: "UPDATE household SET missedDoseAwayAfterMinutes = ?, contactsAfterMinutes = ?",
                                             arguments: [settings.missedDoseAwayAfterMinutes, settings.contactsAfterMinutes])
            try transaction.record(entity: .household, entityId: household.id.text, op: .update, payload: [
                "missedDoseAwayAfterMinutes": .number(Double(settings.missedDoseAwayAfterMinutes)),
                "contactsAfterMinutes": .number(Double(settings.contactsAfterMinutes)),
            ])
            return settings
        }
    }

    static func escalationSettings(_ db: Database) throws -> EscalationSettings {
        guard let row = try Row.fetchOne(db.cachedStatement(
            sql: "SELECT missedDoseAwayAfterMinutes, contactsAfterMinutes FROM household LIMIT 1")) else { return EscalationSettings() }
        return EscalationSettings(missedDoseAwayAfterMinutes: row["missedDoseAwayAfterMinutes"], contactsAfterMinutes: row["contactsAfterMinutes"])
    }

    /// The household's emergency contacts, in the admins' order (admins only).
    public func emergencyContacts(as actor: PermissionPolicy.Actor) async throws -> [EmergencyContact] {
        try PermissionPolicy.require(actor, .edit, .household, what: "The household")
        return try await pool.read { db in try Self.emergencyContacts(db) }
    }

    /// Replaces the list (admins only); the log and the audit say how many,
    /// never who or their numbers.
    public func setEmergencyContacts(_ contacts: [EmergencyContact], as editor: PermissionPolicy.Actor,
                                     by origin: String) async throws -> [EmergencyContact] {
        try await write(by: origin) { transaction in
            let db = transaction.db
            try PermissionPolicy.require(editor, .edit, .household, what: "The household")
            let current = try Self.emergencyContacts(db)
            let same = current.map { [$0.name, $0.phone] } == contacts.map { [$0.name, $0.phone] }
            guard !same else { return current }
            try db.cachedExecute(sql: "DELETE FROM emergency_contacts")
            for (position, contact) in contacts.enumerated() {
                try db.cachedExecute(sql: "INSERT INTO emergency_contacts (id, position, name, phone) VALUES (?, ?, ?, ?)",
                                     arguments: [contact.id.text, position, contact.name, contact.phone])
            }
            try transaction.record(entity: .household, entityId: "household", op: .update,
                                   payload: ["emergencyContacts": .number(Double(contacts.count))])
            return contacts
        }
    }

    static func awayOwner(_ personId: UUID, for action: PermissionPolicy.Action, as actor: PermissionPolicy.Actor,
                          _ db: Database) throws {
        guard let person = try person(id: personId, db), person.archivedAt == nil else { throw HearthError.notFound(what: "That person") }
        try PermissionPolicy.require(actor, action, .away(of: person.id), what: "That person")
    }

    static func awayRecord(of personId: UUID, _ db: Database) throws -> AwayRecord {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT sms, push, pushTopic FROM away_choices WHERE personId = ?"),
                                         arguments: [personId.text])
        else { return AwayRecord(choice: AwayChoice(), pushTopic: nil) }
        return AwayRecord(choice: AwayChoice(sms: row["sms"], push: row["push"]), pushTopic: row["pushTopic"])
    }

    static func emergencyContacts(_ db: Database) throws -> [EmergencyContact] {
        try Row.fetchAll(db.cachedStatement(sql: "SELECT id, name, phone FROM emergency_contacts ORDER BY position")).compactMap { row in
            guard let id = UUID(text: row["id"]) else { return nil }
            return EmergencyContact(id: id, name: row["name"], phone: row["phone"])
        }
    }
}
