import Foundation
import GRDB
import GRDBSQLite
import HearthCore

/// Copies what the write-ahead log holds back into the database file once
/// the log has grown to `threshold` pages, beside the commits rather than
/// inside one.
///
/// By default SQLite checkpoints in the commit that takes the log past 1000
/// pages: that commit also writes the pages back and fsyncs the database
/// file, and whoever waits on it — a keystroke being relayed, a dose being
/// recorded — waits for both (12 ms under strace on the build machine; more
/// on an SD card). So the hub's connections never checkpoint
/// (`wal_autocheckpoint = 0`, see `HearthStore.configuration()`); the
/// writer's log hook tells this type the log's length after each commit,
/// and it runs a passive checkpoint on a connection of its own. A passive
/// checkpoint never holds up the writer or a reader; what it cannot copy yet
/// (a reader still needs it) is copied the next time.
///
/// Why by length and not after a pause: every checkpoint writes each page
/// the log holds once more, into the file, and fsyncs it. The pages a
/// household's writes keep changing (the last page of the change log and of
/// its index, a medication's stock, the typing's table) are the same few, so
/// the rarer the checkpoint, the fewer writes an SD card takes: a dose
/// checkpointed on its own wrote its 5 pages twice. The log is as durable as
/// the file (every commit is fsynced into it, and opening replays it), the
/// hub's backup reads through it, and SQLite copies it in when the hub stops.
/// 1000 pages (4 MB) is SQLite's own default: a few hours of a household's
/// typing, a day or more of its care.
final class LogCheckpointer: Sendable {
    /// How many pages the log may hold before it is copied into the file.
    let threshold: Int

    /// How the last checkpoint went (for tests and status): the pages the
    /// log held and how many of them are now in the database file.
    struct Outcome: Sendable, Equatable {
        var logPages: Int
        var copiedPages: Int
    }

    private struct State {
        var scheduled = false
        var closed = false
        var last: Outcome?
    }

    private let connection: DatabaseQueue
    private let state = Locked(State())
    private let queue = DispatchQueue(label: "hearth.checkpoint", qos: .utility)

    init(path: String, threshold: Int = 1000) throws {
        self.threshold = threshold
        var configuration = Configuration()
        configuration.label = "hearth.checkpoint"
        // Only checkpoints run here; a tiny page cache is plenty.
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA cache_size = -64") }
        connection = try DatabaseQueue(path: path, configuration: configuration)
    }

    /// Has the writer's connection tell this checkpointer the log's length
    /// after each of its commits (SQLite's WAL hook, which
    /// `wal_autocheckpoint` would otherwise use for itself).
    func watch(_ db: Database) {
        // The hook holds the watch, and the watch only a weak reference: a
        // store dropped without closing leaves no hook calling into a freed
        // checkpointer. One watch per store opened, never released.
        let watch = Unmanaged.passRetained(LogWatch(checkpointer: self)).toOpaque()
        sqlite3_wal_hook(db.sqliteConnection, { context, _, _, pages in
            guard let context else { return SQLITE_OK }
            Unmanaged<LogWatch>.fromOpaque(context).takeUnretainedValue().checkpointer?.logHolds(pages: Int(pages))
            return SQLITE_OK
        }, watch)
    }

    /// Called after each commit with the pages the log now holds.
    func logHolds(pages: Int) {
        guard pages >= threshold else { return }
        let schedule = state.withLock { state in
            defer { state.scheduled = true }
            return !state.scheduled && !state.closed
        }
        if schedule { queue.async { self.runScheduled() } }
    }

    /// Runs on `queue`, as `close()` does, so a closed connection is never used.
    private func runScheduled() {
        // Cleared before running, so a commit during the checkpoint that
        // finds the log still long (a reader held part of it) asks again.
        let closed = state.withLock { state in
            state.scheduled = false
            return state.closed
        }
        guard !closed else { return }
        // Another process was checkpointing, or the disk failed (the next
        // commit will say so): the next commit asks again.
        _ = try? checkpoint()
    }

    /// Runs a passive checkpoint now.
    @discardableResult
    func checkpoint() throws -> Outcome {
        let counts = try connection.writeWithoutTransaction { db in try db.checkpoint(.passive) }
        let outcome = Outcome(logPages: counts.walFrameCount, copiedPages: counts.checkpointedFrameCount)
        state.withLock { $0.last = outcome }
        return outcome
    }

    var lastOutcome: Outcome? { state.withLock { $0.last } }

    /// Closes the connection once any checkpoint under way has finished;
    /// SQLite checkpoints as the last connection to the file closes.
    func close() throws {
        try queue.sync {
            state.withLock { $0.closed = true }
            try connection.close()
        }
    }
}

/// What SQLite's WAL hook holds: the checkpointer to tell, while it lives.
private final class LogWatch: Sendable {
    weak let checkpointer: LogCheckpointer?

    init(checkpointer: LogCheckpointer) {
        self.checkpointer = checkpointer
    }
}
