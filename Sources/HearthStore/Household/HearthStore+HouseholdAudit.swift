import Foundation
import GRDB
import HearthCore

/// One change to the household's shape, for its admins: who did it, when,
/// and what it was, with the people it names by name.
public struct HouseholdAuditEntry: Sendable, Hashable {
    public var seq: Int64
    public var time: Date
    /// The person whose device did it; nil from the hub's terminal or the hub itself.
    public var actorName: String?
    /// Done at the hub's terminal (`sudo hearth …`).
    public var viaTerminal: Bool
    public var entity: ChangeEntity
    public var op: Change.Operation
    public var entityId: String
    /// The change as logged (never a secret: payloads carry none), with the
    /// people it names by their names (`personName`, `caregiverName`, `seniorName`).
    public var summary: JSONValue
}

extension HearthStore {
    /// The household's audit: every change to who is in it, who looks after
    /// whom, their devices and alert apps, pairing codes and settings, since
    /// v12 (and what the change log still held then). Compaction folds the
    /// change log; this it never touches.
    static func registerHouseholdAudit(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v12 phone numbers and the household's audit") { db in
            try db.execute(sql: """
                ALTER TABLE people ADD COLUMN phone TEXT;
                CREATE TABLE household_audit (
                    seq INTEGER PRIMARY KEY,
                    entity TEXT NOT NULL,
                    entityId TEXT NOT NULL,
                    op TEXT NOT NULL,
                    payload TEXT NOT NULL,
                    actor TEXT NOT NULL,
                    time INTEGER NOT NULL
                );
                INSERT INTO household_audit (seq, entity, entityId, op, payload, actor, time)
                    SELECT seq, entity, entityId, op, payload, actor, time FROM changes
                    WHERE entity IN ('household', 'person', 'careLink', 'device', 'pairingCode', 'alertApp')
                      AND NOT (entity = 'device' AND json_extract(payload, '$.lastSeenAt') IS NOT NULL);
                """)
        }
    }

    /// The newest `limit` entries, newest first.
    public func householdAudit(limit: Int = 100) async throws -> [HouseholdAuditEntry] {
        try await pool.read { db in
            let names = Dictionary(try Row.fetchAll(db, sql: "SELECT id, name FROM people").map { ($0["id"] as String, $0["name"] as String) },
                                   uniquingKeysWith: { first, _ in first })
            let devices = try Row.fetchAll(db, sql: "SELECT id, personId, name FROM devices")
            let deviceOwners = Dictionary(devices.map { ($0["id"] as String, $0["personId"] as String) }, uniquingKeysWith: { first, _ in first })
            let deviceNames = Dictionary(devices.map { ($0["id"] as String, $0["name"] as String) }, uniquingKeysWith: { first, _ in first })
            return try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM household_audit ORDER BY seq DESC LIMIT ?"),
                                    arguments: [max(1, min(limit, 500))]).compactMap { row in
                guard let entity = ChangeEntity(rawValue: row["entity"]), let op = Change.Operation(rawValue: row["op"]) else { return nil }
                let actor: String = row["actor"]
                let actorName = actor.hasPrefix("device:") ? deviceOwners[String(actor.dropFirst("device:".count))].flatMap { names[$0] } : nil
                let payload = (try? JSONValue(jsonText: row["payload"] as String)) ?? .object([:])
                return HouseholdAuditEntry(seq: row["seq"], time: Date(millisecondsSince1970: row["time"]), actorName: actorName,
                                           viaTerminal: actor == "cli", entity: entity, op: op, entityId: row["entityId"],
                                           summary: Self.inWords(payload, entity: entity, entityId: row["entityId"],
                                                                 names: names, deviceNames: deviceNames))
            }
        }
    }

    /// The payload with the people (and device) it names by id also named
    /// by name, and an archiving or a revoking said as such, so a page can
    /// put it in a sentence.
    static func inWords(_ payload: JSONValue, entity: ChangeEntity, entityId: String, names: [String: String],
                        deviceNames: [String: String]) -> JSONValue {
        guard case .object(var fields) = payload else { return payload }
        func name(_ key: String, of id: JSONValue?) {
            if case .string(let id)? = id, let found = names[id.lowercased()] ?? names[id] { fields[key] = .string(found) }
        }
        name("personName", of: fields["personId"])
        name("caregiverName", of: fields["caregiverId"])
        name("seniorName", of: fields["seniorId"])
        if entity == .person, fields["name"] == nil { name("name", of: .string(entityId)) }
        if entity == .person, fields["archivedAt"] != nil { fields["archived"] = .bool(true) }
        if entity == .device, fields["name"] == nil, let device = deviceNames[entityId] { fields["name"] = .string(device) }
        if entity == .device || entity == .alertApp, let revoked = fields["revokedAt"], revoked != .null { fields["revoked"] = .bool(true) }
        return .object(fields)
    }
}
