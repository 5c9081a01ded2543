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

    /// Where to replay from for a listener whose last seq was `seq`: that
    /// seq when the log still holds what followed it; the newest seq when
    /// it is ahead of the log (a restore from an older backup); and nil when
    /// compacting folded its place away, so the caller decides how far back
    /// to look instead.
    public func replayCursor(after seq: Int64) async throws -> Int64? {
        try await pool.read { db in
            let compactedThrough = try Int64.fetchOne(db.cachedStatement(sql: "SELECT changesCompactedThrough FROM household LIMIT 1")) ?? 0
            guard seq >= compactedThrough else { return nil }
            return min(seq, try Self.latestSeq(db))
        }
    }
}
