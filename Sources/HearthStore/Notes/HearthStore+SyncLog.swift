import Foundation
import GRDB
import HearthCore

/// A page of the change log for a device catching up.
public struct SyncPage: Sendable {
    /// The changes after the cursor, oldest first (not yet filtered for the device).
    public var changes: [Change]
    /// Where the next pull starts: the last `seq` read, or the cursor when none was.
    public var cursor: Int64
    public var more: Bool
}

/// Everything in the log as it stands: the latest entry of every entity not deleted.
public struct SyncSnapshot: Sendable {
    public var changes: [Change]
    public var cursor: Int64
}

extension HearthStore {
    /// Up to `limit` changes after `cursor`. A cursor from before the log was
    /// compacted, or ahead of it (the hub was restored from an older backup),
    /// is refused: the device must start again from a snapshot.
    public func syncPage(after cursor: Int64, limit: Int) async throws -> SyncPage {
        try await pool.read { db in
            try Self.checkSyncCursor(cursor, db)
            let changes = try Row.fetchAll(db.cachedStatement(sql: "SELECT seq, entity, entityId, op, payload, actor, time FROM changes WHERE seq > ? ORDER BY seq LIMIT ?"),
                                           arguments: [cursor, limit]).map(Self.change(from:))
            let next = changes.last?.seq ?? cursor
            return SyncPage(changes: changes, cursor: next, more: try Self.latestSeq(db) > next)
        }
    }

    static func checkSyncCursor(_ cursor: Int64, _ db: Database) throws {
        let compactedThrough = try Int64.fetchOne(db.cachedStatement(sql: "SELECT changesCompactedThrough FROM household LIMIT 1")) ?? 0
        guard cursor >= 0, cursor >= compactedThrough, cursor <= (try latestSeq(db)) else {
            throw HearthError.cursorExpired(requested: cursor)
        }
    }

    /// The latest logged state of every entity that still exists, read in
    /// one snapshot, with the cursor to pull from afterwards. Every entry's
    /// payload holds the whole entity, so the latest one is all a device needs.
    public func syncSnapshot() async throws -> SyncSnapshot {
        try await pool.read { db in
            let cursor = try Self.latestSeq(db)
            let changes = try Row.fetchAll(db.cachedStatement(sql: """
                SELECT seq, entity, entityId, op, payload, actor, time FROM changes
                WHERE seq IN (SELECT MAX(seq) FROM changes GROUP BY entity, entityId) AND op != 'delete'
                ORDER BY seq
                """)).map(Self.change(from:))
            return SyncSnapshot(changes: changes, cursor: cursor)
        }
    }

    /// Folds the log older than `retention` into the latest entry of each
    /// entity: earlier entries of an entity that changed again are removed,
    /// its latest one (with every field's value, or its deletion) stays. A
    /// cursor from before the folded part must then resync from a snapshot.
    /// Returns how many entries were removed. Nothing while the hub's time
    /// jumped in the last day (`clockIsSettled`).
    @discardableResult
    public func compactChanges(olderThan retention: TimeInterval) async throws -> Int {
        guard clockIsSettled else { return 0 }
        let cutoff = currentTime().addingTimeInterval(-retention).millisecondsSince1970
        return try await writeOutsideChangeLog { db in
            guard let horizon = try Int64.fetchOne(db.cachedStatement(sql: "SELECT MAX(seq) FROM changes WHERE time < ?"), arguments: [cutoff]),
                  horizon > (try Int64.fetchOne(db.cachedStatement(sql: "SELECT changesCompactedThrough FROM household LIMIT 1")) ?? 0)
            else { return 0 }
            // Never the newest entry (it is its entity's latest, and said
            // again here): the next seq is the newest + 1 (v23), so deleting
            // it would give its number to another change.
            try db.execute(sql: """
                DELETE FROM changes WHERE seq <= ? AND seq < (SELECT MAX(seq) FROM changes)
                    AND seq NOT IN (SELECT MAX(seq) FROM changes GROUP BY entity, entityId)
                """, arguments: [horizon])
            let removed = db.changesCount
            try db.execute(sql: "UPDATE household SET changesCompactedThrough = ?", arguments: [horizon])
            // A push is remembered twice as long as the log, so a device that
            // resyncs after a 410 and sends its outbox again is not applied twice.
            try db.execute(sql: "DELETE FROM sync_pushes WHERE time < ?", arguments: [cutoff - Int64(retention * 1000)])
            // Clocks of notes purged from Trash: nothing is left for them to order.
            try db.execute(sql: "DELETE FROM sync_clocks WHERE entity = 'note' AND entityId NOT IN (SELECT id FROM notes)")
            return removed
        }
    }
}
