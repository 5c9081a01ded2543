import Foundation
import GRDB

extension HearthMirror {
    /// Moves an outbox entry the hub refused as it stands to `set_aside`.
    func setAside(_ entry: OutboxEntry, reason: String, at time: Date = Date()) async throws {
        try await writer.write { db in
            try db.execute(sql: """
                INSERT OR REPLACE INTO set_aside (opId, entity, entityId, change, reason, setAsideAt)
                SELECT opId, entity, entityId, change, ?, ? FROM outbox WHERE opId = ?
                """, arguments: [reason, time.timeIntervalSince1970, entry.opId])
            try db.execute(sql: "DELETE FROM outbox WHERE opId = ?", arguments: [entry.opId])
        }
    }

    /// The changes the hub refused as they stood, oldest first.
    public func setAsideChanges() async throws -> [SetAsideChange] {
        try await writer.read { db in
            try Row.fetchAll(db, sql: "SELECT opId, entity, entityId, reason, setAsideAt FROM set_aside ORDER BY setAsideAt, opId").map { row in
                SetAsideChange(opId: row["opId"], entity: row["entity"], entityId: row["entityId"], reason: row["reason"],
                               setAsideAt: Date(timeIntervalSince1970: row["setAsideAt"]))
            }
        }
    }

    /// Forgets the changes set aside (the person has seen what did not go through).
    public func forgetSetAsideChanges() async throws {
        try await writer.write { db in try db.execute(sql: "DELETE FROM set_aside") }
    }
}
