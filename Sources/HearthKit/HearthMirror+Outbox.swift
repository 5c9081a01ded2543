import Foundation
import GRDB
import HearthCore

/// One change waiting in the outbox, as a push carries it.
struct OutboxEntry: Sendable {
    var seq: Int64
    var opId: String
    var entity: String
    var entityId: String
    var change: JSONValue
}

extension HearthMirror {
    /// Records a local change: lays `fields` over the copy and queues the
    /// change, stamped with the next reading of this device's hybrid clock,
    /// in the caller's transaction.
    static func enqueue(_ entity: SyncChange.Entity, id: String, fields: [String: JSONValue], deleted: Bool? = nil,
                        now: Date, _ db: Database) throws {
        guard let device = try meta(.deviceId, db) else { throw HearthKitError.notConnected }
        var clock = HybridClock(node: device, latest: try meta(.clock, db).flatMap(HybridTime.init))
        let hlc = clock.next(physical: try hubMilliseconds(at: now, db))
        try setMeta(.clock, hlc.description, db)
        var change: [String: JSONValue] = [
            "opId": .string(UUID.random().text), "entity": .string(entity.rawValue), "id": .string(id),
            "fields": .object(fields), "hlc": .string(hlc.description),
        ]
        if let deleted { change["deleted"] = .bool(deleted) }
        try db.execute(sql: "INSERT INTO outbox (opId, entity, entityId, change) VALUES (?, ?, ?, ?)",
                       arguments: [change["opId"]?.string, entity.rawValue, id, try JSONValue.object(change).jsonText()])
        if entity != .noteText { try layOver(OutboxEntry(seq: 0, opId: "", entity: entity.rawValue, entityId: id, change: .object(change)), db) }
    }

    /// Lays a pending change over the copy, as the hub would apply it if it won.
    static func layOver(_ entry: OutboxEntry, _ db: Database) throws {
        guard case .object(let given)? = entry.change.field("fields"),
              let entity = SyncChange.Entity(rawValue: entry.entity)?.logged else { return }
        var fields = try Self.fields(entity, entry.entityId, db) ?? ["id": .string(entry.entityId)]
        fields.merge(given) { _, new in new }
        switch entry.change.field("deleted") {
        case .bool(true)?: fields["deletedAt"] = fields["deletedAt"].flatMap { $0 == .null ? nil : $0 } ?? .string(ISOTime.text(Date()))
        case .bool(false)?: fields["deletedAt"] = .null
        default: break
        }
        if entity == .dose {
            // A planned dose answered here is kept under its key until the hub's copy arrives.
            if UUID(text: entry.entityId) == nil { fields["key"] = .string(entry.entityId) }
            fields["recordedHere"] = .bool(true)
        }
        try setFields(fields, entity, entry.entityId, db)
    }

    /// Everything waiting, oldest first, marked in flight; a push carries at most `limit`.
    func takeOutbox(limit: Int) async throws -> (entries: [OutboxEntry], cursor: Int64) {
        try await writer.write { db in
            let rows = try Row.fetchAll(db, sql: "SELECT seq, opId, entity, entityId, change FROM outbox ORDER BY seq LIMIT ?", arguments: [limit])
            let entries = try rows.map { row in
                OutboxEntry(seq: row["seq"], opId: row["opId"], entity: row["entity"], entityId: row["entityId"],
                            change: try JSONValue(jsonText: row["change"]))
            }
            if let last = entries.last {
                try db.execute(sql: "UPDATE outbox SET inFlight = 1 WHERE seq <= ?", arguments: [last.seq])
            }
            return (entries, try Self.meta(.cursor, db).flatMap { Int64($0) } ?? 0)
        }
    }

    static func outbox(_ db: Database) throws -> [OutboxEntry] {
        try Row.fetchAll(db, sql: "SELECT seq, opId, entity, entityId, change FROM outbox ORDER BY seq").map { row in
            OutboxEntry(seq: row["seq"], opId: row["opId"], entity: row["entity"], entityId: row["entityId"],
                        change: try JSONValue(jsonText: row["change"]))
        }
    }
}
