import Foundation
import GRDB
import HearthCore

extension HearthStore {
    /// Where to replay the log from for a listener that asks for what
    /// happened since a moment (an alert app's `since=<time>`): just before
    /// the first change at or after it, or the newest seq when there is none.
    public func replayCursor(since time: Date) async throws -> Int64 {
        try await pool.read { db in
            if let first = try Int64.fetchOne(db.cachedStatement(sql: "SELECT seq FROM changes WHERE time >= ? ORDER BY seq LIMIT 1"),
                                              arguments: [time.millisecondsSince1970]) {
                return first - 1
            }
            return try Self.latestSeq(db)
        }
    }

    /// Where to replay from for a listener whose last seq was `seq`,
    /// written at `written` when it knows: that seq when the log still holds
    /// what followed it. Nil when the log cannot say — compacting folded
    /// its place away, it is ahead of the log, or the entry at that seq was
    /// written at another time (the hub was restored from an older backup
    /// and counted up again) — so the caller looks back by time instead.
    public func replayCursor(after seq: Int64, writtenAt written: Date? = nil) async throws -> Int64? {
        try await pool.read { db in
            let compactedThrough = try Int64.fetchOne(db.cachedStatement(sql: "SELECT changesCompactedThrough FROM household LIMIT 1")) ?? 0
            guard seq >= compactedThrough, seq <= (try Self.latestSeq(db)) else { return nil }
            if let written, let time = try Int64.fetchOne(db.cachedStatement(sql: "SELECT time FROM changes WHERE seq = ?"), arguments: [seq]),
               time != written.millisecondsSince1970 {
                return nil
            }
            return seq
        }
    }
}
