import Foundation
import GRDB
import Logging
import HearthCore

/// Owns the household's SQLite database: opens it with the settings a care
/// hub needs, runs migrations, and is the one write path (Docs/architecture.md).
public final class HearthStore: Sendable {
    public static let fileName = "hearth.sqlite"

    let pool: DatabasePool
    /// Publishes committed changes to live listeners.
    public let hub: ChangeHub
    /// Injected so tests can run days of the hub in milliseconds.
    let now: @Sendable () -> Date
    /// Milliseconds added to `now` once someone said the hub's clock is wrong
    /// (a Pi has no real-time clock and, offline, no NTP); kept in the household row.
    let clockOffset = Locked<Int64>(0)
    /// Whether someone corrected the hub's time since it started: a caregiver
    /// may once (after a boot without a real-time clock), then only an admin.
    let clockCorrectedSinceStart = Locked(false)
    /// Whether the hub's time stayed put for a day, before Trash is emptied
    /// or the log folded (ClockSteadiness).
    let steadiness: ClockSteadiness
    /// Who each token belongs to, emptied by every identity change published.
    let pairedDevices: PairedDeviceCache
    /// Writes that arrive together share one commit.
    let groupCommit: GroupCommit
    /// Orders the hub's own field changes against devices' offline ones.
    let clock: HubClock
    /// Copies the write-ahead log into the database file, beside the commits.
    let checkpointer: LogCheckpointer

    /// Opens (creating if needed) `hearth.sqlite` in `directory`, and brings it to the latest schema.
    /// `now` replaces the system's clock (tests); time it shows passing is
    /// taken as time passing, not as the clock jumping.
    public init(directory: URL, now: (@Sendable () -> Date)? = nil) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent(Self.fileName).path
        StorePageSize.rewriteIfNeeded(path: path, logger: Logger(label: "hearth.store"))
        let pool = try DatabasePool(path: path, configuration: Self.configuration())
        self.pool = pool
        // GRDB turns WAL mode on with synchronous=NORMAL; a power cut on a Pi
        // must not lose a dose the hub already acknowledged, so writes fsync.
        try pool.writeWithoutTransaction { db in
            try db.cachedExecute(sql: "PRAGMA synchronous = FULL")
        }
        try Self.migrator.migrate(pool)
        try pool.write { db in
            try Self.catchUpNoteTexts(db)
            try Self.refreshBehindSearch(db)
        }
        let hub = ChangeHub(lastPublished: try pool.read { db in try Self.latestSeq(db) })
        let clock = try pool.read { db in try HubClock(latestIn: db) }
        self.clock = clock
        let pairedDevices = PairedDeviceCache()
        self.hub = hub
        self.pairedDevices = pairedDevices
        let systemNow = now ?? { Date() }
        self.now = systemNow
        let steadyNow: @Sendable () -> TimeInterval
        if let now {
            steadyNow = { now().timeIntervalSince1970 }
        } else {
            let start = ContinuousClock.now
            steadyNow = {
                let elapsed = (ContinuousClock.now - start).components
                return Double(elapsed.seconds) + Double(elapsed.attoseconds) * 1e-18
            }
        }
        let (lastStored, offset) = try pool.read { db in
            (try Self.lastStoredTime(db), try Int64.fetchOne(db.cachedStatement(sql: "SELECT clockOffsetMs FROM household LIMIT 1")) ?? 0)
        }
        let hubTime = systemNow().addingTimeInterval(Double(offset) / 1000)
        steadiness = ClockSteadiness(wall: systemNow(), steadyNow: steadyNow,
                                     startsJumped: lastStored.map { ClockSteadiness.isJump(from: $0, to: hubTime) } ?? false)
        let checkpointer = try LogCheckpointer(path: path)
        self.checkpointer = checkpointer
        groupCommit = GroupCommit(pool: pool) { db, changes in
            // Runs on the writer's serial queue right after COMMIT, so
            // listeners hear changes in exactly the order of `seq`.
            Self.publish(changes, committedIn: db, to: hub, forgetting: pairedDevices)
        }
        clockOffset.withLock { $0 = offset }
        // The pool's one writer tells the checkpointer how long the log is.
        try pool.writeWithoutTransaction { db in checkpointer.watch(db) }
    }

    static func configuration() -> Configuration {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.label = "hearth"
        // Readers wait for a busy writer rather than failing at once.
        configuration.busyMode = .timeout(5)
        // A household reads a few pages a second, most answers come from the
        // hub's read cache, and a Pi has 2–4 cores: two readers beside the
        // writer, each with a 1 MB page cache (SQLite's default is 2 MB, and
        // GRDB's five readers), keep the hub's memory within its 40 MB.
        configuration.maximumReaderCount = 2
        configuration.prepareDatabase { db in
            // A new file's pages (ignored by one that has its pages already).
            try db.execute(sql: "PRAGMA page_size = \(StorePageSize.bytes)")
            try db.execute(sql: "PRAGMA cache_size = -1024")
            // Each write in a group commit has its own savepoint, and SQLite
            // keeps a savepoint's undo log in a temporary file unless told
            // otherwise: a file created and deleted for every dose recorded.
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
            // Commits never checkpoint; `LogCheckpointer` does, beside them,
            // once the log has grown to 1000 pages.
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
        }
        return configuration
    }

    /// The one write path: runs `body` in a write transaction, in which every
    /// mutation appends its change; the changes are published only after the
    /// transaction commits, in commit order. Internal: other modules change
    /// the household only through the store's own methods, each of which
    /// asks `PermissionPolicy` inside its transaction.
    func write<T: Sendable>(
        by origin: String,
        _ body: @escaping @Sendable (inout WriteTransaction) throws -> T
    ) async throws -> T {
        // Stored as whole milliseconds; keep the in-memory value identical.
        let time = Date(millisecondsSince1970: currentTime().millisecondsSince1970)
        // Committed with whatever other writes arrive meanwhile (see
        // `GroupCommit`); the batch publishes its changes after COMMIT.
        let clock = self.clock
        return try await groupCommit.write { db in
            var transaction = WriteTransaction(db: db, origin: origin, time: time, clock: clock)
            let result = try body(&transaction)
            return (result, transaction.changes)
        }
    }

    /// A write that tells no one (compacting, Notek's positions): outside
    /// the group commit and the change log.
    func writeOutsideChangeLog<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await pool.write(body)
    }

    /// The hub's time: the system's, corrected when the household said it was wrong.
    public func currentTime() -> Date {
        now().addingTimeInterval(Double(clockOffset.withLock { $0 }) / 1000)
    }

    /// Publishes changes that another process committed to the same file,
    /// such as `hearth pair` or `hearth devices revoke` while the hub runs.
    /// Cheap when there are none; the hub calls it about once a second.
    public func publishExternalChanges() async throws {
        let (hub, pairedDevices) = (self.hub, self.pairedDevices)
        guard try await latestSeq() > hub.lastPublished else { return }
        try await pool.writeWithoutTransaction { db in Self.publishUnpublished(db, to: hub, forgetting: pairedDevices) }
    }

    /// Publishes a batch's changes as they were logged when they follow
    /// straight on from the last published `seq`. Otherwise another process
    /// (the `hearth` CLI) committed in between, and the log is read instead,
    /// so that its changes are not skipped.
    static func publish(_ changes: [Change], committedIn db: Database, to hub: ChangeHub, forgetting pairedDevices: PairedDeviceCache) {
        let first = hub.lastPublished + 1
        guard changes.enumerated().allSatisfy({ $0.element.seq == first + Int64($0.offset) }) else {
            publishUnpublished(db, to: hub, forgetting: pairedDevices)
            return
        }
        // Before anyone hears of a revocation, its token stops working.
        pairedDevices.forget(after: changes)
        hub.publish(changes)
    }

    static func publishUnpublished(_ db: Database, to hub: ChangeHub, forgetting pairedDevices: PairedDeviceCache) {
        do {
            let changes = try Row.fetchAll(db.cachedStatement(sql: "SELECT seq, entity, entityId, op, payload, actor, time FROM changes WHERE seq > ? ORDER BY seq"),
                arguments: [hub.lastPublished]
            ).map(change(from:))
            // Before anyone hears of a revocation, its token stops working.
            pairedDevices.forget(after: changes)
            hub.publish(changes)
        } catch {
            // Listeners will be caught up on the next commit or the next
            // external-change check; a reconnecting client replays from the log.
        }
    }

    /// Reads with a consistent snapshot of the database.
    public func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await pool.read(body)
    }

    /// Confirms the database answers; used by the health endpoint.
    public func isHealthy() async -> Bool {
        (try? await pool.read { db in try Int.fetchOne(db.cachedStatement(sql: "SELECT 1")) }) == 1
    }

    /// Ends live subscriptions and closes the database; call once, at shutdown.
    public func close() throws {
        hub.closeAll()
        try pool.close()
        try checkpointer.close()
    }
}
