import Foundation
import GRDB
import HearthCore

/// Commits the writes that arrive together in one transaction, so that one
/// fsync acknowledges them all.
///
/// With `synchronous=FULL` every commit waits for the disk, and on a Pi's SD
/// card or a home server's disk that wait, not the SQL, is what limits how
/// many doses a second the hub can record. Writes that arrive while a commit
/// is waiting for the disk are queued and committed together by the next
/// one, so a lone write still commits at once and a burst shares its fsyncs.
///
/// Each write runs in its own savepoint inside the shared transaction: a
/// write that fails (a rule broken, a conflict) is rolled back alone and the
/// others still commit. Nobody hears "done" before the transaction holding
/// their write has committed and its changes have been published; if the
/// commit itself fails, every write in it is told so, and none was kept.
final class GroupCommit: Sendable {
    /// What one write left behind in the shared transaction: the changes it
    /// logged, and how to tell its caller the outcome of the commit.
    struct Staged: Sendable {
        var changes: [Change]
        var finish: @Sendable (_ commitFailure: (any Error)?) -> Void
    }

    /// A queued write: how to run it in a batch, and how to tell its caller
    /// it never ran.
    private struct Write: Sendable {
        var fail: @Sendable (any Error) -> Void
        var run: @Sendable (Database) -> Staged
    }

    private struct State {
        var queued: [Write] = []
        /// A batch is scheduled or committing; it takes whatever queued by then.
        var committing = false
    }

    private let pool: DatabasePool
    /// Told of every commit, so the log is copied back soon after.
    /// Runs on the writer's queue after each commit that logged a change,
    /// with the batch's changes in `seq` order.
    private let afterCommit: @Sendable (Database, [Change]) -> Void
    private let state = Locked(State())

    init(pool: DatabasePool, afterCommit: @escaping @Sendable (Database, [Change]) -> Void) {
        self.pool = pool
        self.afterCommit = afterCommit
    }

    /// Runs `body` in the next batch; returns once that batch has committed.
    /// `body` also gives the changes it logged.
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> (result: T, changes: [Change])) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            enqueue(Write(fail: { continuation.resume(throwing: $0) }) { db in
                do {
                    var outcome: (result: T, changes: [Change])?
                    try db.inSavepoint {
                        outcome = try body(db)
                        return .commit
                    }
                    guard let outcome else { throw GroupCommitError.abandoned }
                    return Staged(changes: outcome.changes) { failure in
                        if let failure { continuation.resume(throwing: failure) } else { continuation.resume(returning: outcome.result) }
                    }
                } catch {
                    // Rolled back to its savepoint; the others are unaffected.
                    return Staged(changes: []) { _ in continuation.resume(throwing: error) }
                }
            })
        }
    }

    private func enqueue(_ write: Write) {
        let start = state.withLock { state in
            state.queued.append(write)
            defer { state.committing = true }
            return !state.committing
        }
        if start { scheduleBatch() }
    }

    /// One batch per turn on the writer's queue, so other writers (note
    /// editing, the external-change check) take their turn between batches.
    private func scheduleBatch() {
        pool.asyncWriteWithoutTransaction { db in self.commitBatch(db) }
    }

    private func commitBatch(_ db: Database) {
        let batch = state.withLock { state in
            defer { state.queued.removeAll(keepingCapacity: true) }
            return state.queued
        }
        var staged: [Staged] = []
        staged.reserveCapacity(batch.count)
        var failure: (any Error)?
        do {
            try db.inTransaction(.immediate) {
                for write in batch {
                    staged.append(write.run(db))
                    // A disk error can make SQLite roll back the whole
                    // transaction; what is left must not run outside one.
                    guard db.isInsideTransaction else { throw GroupCommitError.rolledBack }
                }
                return .commit
            }
        } catch {
            failure = error
        }
        if failure == nil {
            let changes = staged.flatMap(\.changes)
            if !changes.isEmpty { afterCommit(db, changes) }
        }
        for item in staged { item.finish(failure) }
        // Writes that never ran because SQLite lost the transaction part way
        // go first in the next batch: nothing of theirs was written or told.
        // When not even the first could run (the transaction did not begin:
        // the file is locked or the disk is gone), each is told why.
        let unrun = batch.dropFirst(staged.count)
        if staged.isEmpty, let failure {
            for write in unrun { write.fail(failure) }
        } else if !unrun.isEmpty {
            state.withLock { state in state.queued.insert(contentsOf: unrun, at: 0) }
        }
        let more = state.withLock { state in
            if state.queued.isEmpty { state.committing = false }
            return state.committing
        }
        if more { scheduleBatch() }
    }
}

enum GroupCommitError: Error, CustomStringConvertible {
    case rolledBack, abandoned

    var description: String {
        switch self {
        case .rolledBack: "the database rolled back the transaction"
        case .abandoned: "the write did not finish"
        }
    }
}
