import Foundation
import GRDB
import HearthCore

extension HearthStore {
    /// The newest `seq` in the log, or 0 when it is empty.
    public func latestSeq() async throws -> Int64 {
        try await pool.read { db in try Self.latestSeq(db) }
    }

    static func latestSeq(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT MAX(seq) FROM changes")) ?? 0
    }

    /// Up to `limit` changes after `cursor`, oldest first.
    public func changes(after cursor: Int64, limit: Int) async throws -> [Change] {
        try await pool.read { db in
            try Row.fetchAll(db.cachedStatement(sql: "SELECT seq, entity, entityId, op, payload, actor, time FROM changes WHERE seq > ? ORDER BY seq LIMIT ?"),
                arguments: [cursor, limit]
            ).map(Self.change(from:))
        }
    }

    static func change(from row: Row) throws -> Change {
        let opText: String = row["op"]
        guard let op = Change.Operation(rawValue: opText) else {
            throw DatabaseError(message: "change \(row["seq"] as Int64) has unknown op \(opText)")
        }
        let entityText: String = row["entity"]
        guard let entity = ChangeEntity(rawValue: entityText) else {
            throw DatabaseError(message: "change \(row["seq"] as Int64) has unknown entity \(entityText)")
        }
        return Change(
            seq: row["seq"], entity: entity, entityId: row["entityId"], op: op,
            payload: try JSONValue(jsonText: row["payload"]), origin: row["actor"],
            time: Date(millisecondsSince1970: row["time"])
        )
    }

    /// Subscribes to the log from `cursor`: first every change after it, then
    /// live ones, each exactly once and in order. A cursor ahead of the log is
    /// refused, since the client holds state this hub never had.
    public func subscribe(
        after cursor: Int64,
        bufferLimit: Int = ChangeHub.defaultBufferLimit,
        where isVisible: @escaping @Sendable (Change) -> Bool = { _ in true }
    ) async throws -> ChangeSubscription {
        // Register before reading: anything committed after this point arrives
        // live, anything before it is found by the replay.
        let live = hub.register(bufferLimit: bufferLimit)
        let latest: Int64
        do {
            latest = try await latestSeq()
        } catch {
            live.cancel()
            throw error
        }
        if cursor > latest {
            live.cancel()
            throw HearthError.cursorAhead(requested: cursor, latest: latest)
        }
        return ChangeSubscription(
            cursor: cursor, latestAtStart: latest, live: live, isVisible: isVisible,
            readPage: { [self] after in try await self.changes(after: after, limit: ChangeSubscription.replayPageSize) }
        )
    }
}
