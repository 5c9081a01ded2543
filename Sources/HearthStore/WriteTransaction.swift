import Foundation
import GRDB
import HearthCore

/// A write in progress. Mutations go through `db`; each one appends its
/// change with `record`, inside the same transaction, so the log can never
/// disagree with the data.
public struct WriteTransaction {
    public let db: Database
    public let actor: String
    public let time: Date
    public private(set) var changes: [Change] = []

    init(db: Database, actor: String, time: Date) {
        self.db = db
        self.actor = actor
        self.time = time
    }

    /// Appends one change to the log and returns it with its `seq`.
    @discardableResult
    public mutating func record(entity: String, entityId: String, op: Change.Operation, payload: JSONValue) throws -> Change {
        try db.cachedExecute(sql: "INSERT INTO changes (entity, entityId, op, payload, actor, time) VALUES (?, ?, ?, ?, ?, ?)",
            arguments: [entity, entityId, op.rawValue, try payload.jsonText(), actor, time.millisecondsSince1970]
        )
        let change = Change(
            seq: db.lastInsertedRowID, entity: entity, entityId: entityId,
            op: op, payload: payload, actor: actor, time: time
        )
        changes.append(change)
        return change
    }
}
