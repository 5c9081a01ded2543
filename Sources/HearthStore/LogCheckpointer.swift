import Foundation
import GRDB
import HearthCore

/// Copies what the write-ahead log holds back into the database file, beside
/// the commits rather than inside one.
///
/// By default SQLite checkpoints in the commit that takes the log past 1000
/// pages: that commit also writes the pages back and fsyncs the database
/// file, and whoever waits on it — a keystroke being relayed, a dose being
/// recorded — waits for both; on this hub's disk that was up to 130 ms every
/// few seconds of typing. So the hub's connections never checkpoint
/// (`wal_autocheckpoint = 0`, see `HearthStore.configuration()`), and this
/// type runs a passive checkpoint on a connection of its own a moment after
/// writes. A passive checkpoint never holds up the writer or a reader; what
/// it cannot copy yet (a reader still needs it) is copied the next time.
final class LogCheckpointer: Sendable {
    /// How long after a commit the checkpoint runs: commits in the meantime
    /// share it, so typing costs one checkpoint a second, not one a keystroke.
    static let delay: DispatchTimeInterval = .seconds(1)

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

    init(path: String) throws {
        var configuration = Configuration()
        configuration.label = "hearth.checkpoint"
        // Only checkpoints run here; a tiny page cache is plenty.
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA cache_size = -64") }
        connection = try DatabaseQueue(path: path, configuration: configuration)
    }

    /// Called after each commit: makes sure a checkpoint follows it.
    func committed() {
        let schedule = state.withLock { state in
            defer { state.scheduled = true }
            return !state.scheduled
        }
        if schedule { queue.asyncAfter(deadline: .now() + Self.delay) { self.runScheduled() } }
    }

    /// Runs on `queue`, as `close()` does, so a closed connection is never used.
    private func runScheduled() {
        // Cleared before running, so commits during the checkpoint get the next one.
        let closed = state.withLock { state in
            state.scheduled = false
            return state.closed
        }
        guard !closed else { return }
        do {
            try checkpoint()
        } catch {
            // Another process was checkpointing, or the disk failed (the
            // next commit will say so): try again later.
            committed()
        }
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
