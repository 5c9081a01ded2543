import Foundation
import GRDB
import HearthCore

/// A write in progress. Mutations go through `db`; each one appends its
/// change with `record`, inside the same transaction, so the log can never
/// disagree with the data.
public struct WriteTransaction {
    /// Internal, as `HearthStore.write` is: no other module writes around
    /// the permission policy.
    let db: Database
    /// Where the write came from, as the change log records it
    /// ("device:<id>", "cli", "alert-app:<id>"): not who acts for the
    /// permission policy, which is a `PermissionPolicy.Actor`.
    public let origin: String
    public let time: Date
    public private(set) var changes: [Change] = []
    /// Stamps the fields a person changes, for sync's last-writer-wins.
    let clock: HubClock

    init(db: Database, origin: String, time: Date, clock: HubClock) {
        self.db = db
        self.origin = origin
        self.time = time
        self.clock = clock
    }

    /// Appends one change to the log and returns it with its `seq`.
    @discardableResult
    public mutating func record(entity: ChangeEntity, entityId: String, op: Change.Operation, payload: JSONValue) throws -> Change {
        try db.cachedExecute(sql: "INSERT INTO changes (entity, entityId, op, payload, actor, time) VALUES (?, ?, ?, ?, ?, ?)",
            arguments: [entity.rawValue, entityId, op.rawValue, try payload.jsonText(), origin, time.millisecondsSince1970]
        )
        let change = Change(
            seq: db.lastInsertedRowID, entity: entity, entityId: entityId,
            op: op, payload: payload, origin: origin, time: time
        )
        if Self.isAudited(entity, payload) {
            // Kept for the admins' audit under the same seq; compaction folds only `changes`.
            try db.cachedExecute(sql: "INSERT INTO household_audit (seq, entity, entityId, op, payload, actor, time) SELECT seq, entity, entityId, op, payload, actor, time FROM changes WHERE seq = ?",
                                 arguments: [change.seq])
        }
        changes.append(change)
        return change
    }

    /// Records that `fields` of an entity were just changed by the hub (the
    /// API, the web, the CLI), at a hub clock reading: a device's offline
    /// edit of the same field then wins only if it was stamped later.
    public func stamp(_ fields: some Sequence<String>, of entity: SyncChange.Entity, id entityId: String) throws {
        let reading = clock.next(at: time).description
        for field in fields {
            try Self.setClock(reading, of: entity.rawValue, id: entityId, field: field, db)
        }
    }

    /// Stamps the fields sync can change that differ between two payloads of
    /// one entity (its `json` before and after an edit).
    public func stampChanges(of entity: SyncChange.Entity, id entityId: String, from before: JSONValue, to after: JSONValue) throws {
        guard case .object(let old) = before, case .object(let new) = after else { return }
        let changed = SyncChange.fieldKinds(of: entity).keys.filter { old[$0] != new[$0] }.sorted()
        if !changed.isEmpty { try stamp(changed, of: entity, id: entityId) }
    }

    static func setClock(_ reading: String, of entity: String, id entityId: String, field: String, _ db: Database) throws {
        try db.cachedExecute(sql: """
            INSERT INTO sync_clocks (entity, entityId, field, hlc) VALUES (?, ?, ?, ?)
            ON CONFLICT (entity, entityId, field) DO UPDATE SET hlc = excluded.hlc
            """, arguments: [entity, entityId, field, reading])
    }

    /// Whether a change goes into the household's audit: it shapes the
    /// household, and it is not a device saying it is still here nor a
    /// caregiver's own name for her senior (hers alone).
    static func isAudited(_ entity: ChangeEntity, _ payload: JSONValue) -> Bool {
        entity.isHouseholdShape && !(entity == .device && payload.field("lastSeenAt") != nil)
            && !(entity == .careLink && payload.field("aliasChanged") != nil)
    }
}
