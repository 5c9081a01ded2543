import Foundation
import GRDB
import HearthCore

/// Copies what the write-ahead log holds back into the database file, beside
/// the commits rather than inside one.
///
/// By default SQLite checkpoints in the commit that takes the log past 1000
/// pages: that commit also writes the pages back and fsyncs the database
/// file, and whoever waits on it — a keystroke being relayed, a dose being
/// recorded — waits for both (12 ms under strace on the build machine, about
/// every 125 keystrokes; more on an SD card). So the hub's connections never
/// checkpoint (`wal_autocheckpoint = 0`, see `HearthStore.configuration()`),
/// and this type runs a passive checkpoint on a connection of its own once
/// writing pauses for a moment, or after a while of steady writing. A
/// passive checkpoint never holds up the writer or a reader; what it cannot
/// copy yet (a reader still needs it) is copied the next time.
///
/// Waiting for a pause keeps checkpoints, each with its own fsyncs and a
/// rewrite of the pages typing keeps changing, away from the disk while
/// someone types, and an SD card from wearing out on the same pages.
final class LogCheckpointer: Sendable {
    /// How long writing must pause before a checkpoint.
    let pause: Duration
    /// How long steady writing goes on before it gets one anyway.
    let longest: Duration

    /// How the last checkpoint went (for tests and status): the pages the
    /// log held and how many of them are now in the database file.
    struct Outcome: Sendable, Equatable {
        var logPages: Int
        var copiedPages: Int
    }

    private struct State {
        var scheduled = false
        var closed = false
        /// The first and the last commit not yet checkpointed.
        var firstWaiting: ContinuousClock.Instant?
        var lastCommit: ContinuousClock.Instant?
        var last: Outcome?
    }

    private enum Next {
        case nothing, wait(Duration), checkpoint
    }

    private let connection: DatabaseQueue
    private let state = Locked(State())
    private let queue = DispatchQueue(label: "hearth.checkpoint", qos: .utility)

    /// A pause of 2 s, longer than the second between two rounds of typing
    /// (`NoteSession.roundInterval`), so typing never pauses "enough"; and
    /// a minute of steady writing at the longest, so a page that every round
    /// changes (the last page of the typing's table and of its index) is
    /// copied into the database file once a minute, not six times: with a
    /// round a second the log holds about 300 pages (1.2 MB) by then.
    init(path: String, pause: Duration = .seconds(2), longest: Duration = .seconds(60)) throws {
        self.pause = pause
        self.longest = longest
        var configuration = Configuration()
        configuration.label = "hearth.checkpoint"
        // Only checkpoints run here; a tiny page cache is plenty.
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA cache_size = -64") }
        connection = try DatabaseQueue(path: path, configuration: configuration)
    }

    /// Called after each commit: makes sure a checkpoint follows it.
    func committed() {
        let now = ContinuousClock.now
        let schedule = state.withLock { state in
            state.lastCommit = now
            if state.firstWaiting == nil { state.firstWaiting = now }
            defer { state.scheduled = true }
            return !state.scheduled
        }
        if schedule { runAfter(pause) }
    }

    private func runAfter(_ delay: Duration) {
        let nanoseconds = Int((delay / .nanoseconds(1)).rounded(.up))
        queue.asyncAfter(deadline: .now() + .nanoseconds(max(0, nanoseconds))) { self.runWhenDue() }
    }

    /// Runs on `queue`, as `close()` does, so a closed connection is never used.
    private func runWhenDue() {
        let now = ContinuousClock.now
        let next: Next = state.withLock { state in
            guard !state.closed, let first = state.firstWaiting, let last = state.lastCommit else {
                state.scheduled = false
                return .nothing
            }
            let due = min(last + pause, first + longest)
            if due > now { return .wait(due - now) }
            // Cleared before running, so commits during the checkpoint get the next one.
            state.scheduled = false
            state.firstWaiting = nil
            return .checkpoint
        }
        switch next {
        case .nothing:
            return
        case .wait(let delay):
            runAfter(delay)
        case .checkpoint:
            do {
                try checkpoint()
            } catch {
                // Another process was checkpointing, or the disk failed (the
                // next commit will say so): try again later.
                committed()
            }
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
