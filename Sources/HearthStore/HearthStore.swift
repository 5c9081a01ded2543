import Foundation
import GRDB
import HearthCore

/// Owns the household's SQLite database: opens it with the settings a care
/// hub needs, runs migrations, and is the one write path (see DESIGN.md).
public final class HearthStore: Sendable {
    public static let fileName = "hearth.sqlite"

    let pool: DatabasePool
    /// Publishes committed changes to live listeners.
    public let hub: ChangeHub
    /// Injected so tests can run days of the hub in milliseconds.
    let now: @Sendable () -> Date

    /// Opens (creating if needed) `hearth.sqlite` in `directory`, and brings it to the latest schema.
    public init(directory: URL, now: @escaping @Sendable () -> Date = { Date() }) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent(Self.fileName).path
        pool = try DatabasePool(path: path, configuration: Self.configuration())
        // GRDB turns WAL mode on with synchronous=NORMAL; a power cut on a Pi
        // must not lose a dose the hub already acknowledged, so writes fsync.
        try pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        try Self.migrator.migrate(pool)
        hub = ChangeHub()
        self.now = now
    }

    static func configuration() -> Configuration {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.label = "hearth"
        // Readers wait for a busy writer rather than failing at once.
        configuration.busyMode = .timeout(5)
        return configuration
    }

    /// The one write path: runs `body` in a write transaction, in which every
    /// mutation appends its change; the changes are published only after the
    /// transaction commits, in commit order.
    public func write<T: Sendable>(
        by actor: String,
        _ body: @escaping @Sendable (inout WriteTransaction) throws -> T
    ) async throws -> T {
        let hub = self.hub
        // Stored as whole milliseconds; keep the in-memory value identical.
        let time = Date(millisecondsSince1970: now().millisecondsSince1970)
        return try await pool.write { db in
            var transaction = WriteTransaction(db: db, actor: actor, time: time)
            let result = try body(&transaction)
            let changes = transaction.changes
            if !changes.isEmpty {
                // Runs on the writer's serial queue right after COMMIT, so
                // listeners hear changes in exactly the order of `seq`.
                db.afterNextTransaction(onCommit: { _ in hub.publish(changes) })
            }
            return result
        }
    }

    /// Reads with a consistent snapshot of the database.
    public func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await pool.read(body)
    }

    /// Confirms the database answers; used by the health endpoint.
    public func isHealthy() async -> Bool {
        (try? await pool.read { db in try Int.fetchOne(db, sql: "SELECT 1") }) == 1
    }

    /// Ends live subscriptions and closes the database; call once, at shutdown.
    public func close() throws {
        hub.closeAll()
        try pool.close()
    }
}
