import Foundation
import GRDB
import HearthCore

/// The device's own copy of what the hub shows it, kept in SQLite, and the
/// outbox of what it changed that the hub has not yet confirmed. Local
/// writes change the copy and the outbox in one transaction, so an app that
/// is killed mid-edit loses nothing; reads never wait for the network.
///
/// The copy holds every entity the hub sends a sync (notes, medications,
/// schedules, doses, people…) as the JSON the hub sent, plus each note's
/// text and CRDT state. Edits still in the outbox are laid over what the hub
/// sent, so a sync that lands mid-edit does not undo them.
public final class HearthMirror: Sendable {
    let writer: any DatabaseWriter
    /// This device's clock: where the hub's time is compared with it.
    let clock: DeviceClock

    /// A mirror kept in the SQLite file at `path` (created when missing).
    public convenience init(path: String) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        try self.init(writer: DatabasePool(path: path, configuration: configuration))
    }

    /// A mirror in memory only: for previews and tests; gone when released.
    public static func inMemory() throws -> HearthMirror {
        try HearthMirror(writer: DatabaseQueue())
    }

    init(writer: any DatabaseWriter, clock: DeviceClock = .system) throws {
        self.writer = writer
        self.clock = clock
        try Self.migrator.migrate(writer)
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1 mirror") { db in
            // cursor, deviceId, personId, replica, clock (latest HLC), timeZone,
            // hubOffset (ms the hub's time is ahead of this device's clock).
            try db.execute(sql: "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID")
            // `fields` is the entity as the hub sent it, with pending edits laid over.
            // Tables that are watched keep their rowid: SQLite tells observers
            // nothing of changes to WITHOUT ROWID tables.
            try db.execute(sql: """
                CREATE TABLE entities (
                    entity TEXT NOT NULL, id TEXT NOT NULL, fields TEXT NOT NULL,
                    PRIMARY KEY (entity, id)
                )
                """)
            // A note's text, and its CRDT state including typing not yet confirmed.
            try db.execute(sql: "CREATE TABLE note_texts (noteId TEXT PRIMARY KEY, text TEXT NOT NULL, state BLOB NOT NULL)")
            // One change a push carries; `inFlight` once sent without an answer
            // (sent again on the next sync: the hub applies an opId once).
            try db.execute(sql: """
                CREATE TABLE outbox (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT, opId TEXT NOT NULL UNIQUE,
                    entity TEXT NOT NULL, entityId TEXT NOT NULL, change TEXT NOT NULL,
                    inFlight INTEGER NOT NULL DEFAULT 0
                )
                """)
        }
        migrator.registerMigration("v2 set aside") { db in
            // Changes the hub refused as they stand (it could not read them, or
            // their opId was used before): kept for the app to show, no longer sent.
            try db.execute(sql: """
                CREATE TABLE set_aside (
                    opId TEXT PRIMARY KEY, entity TEXT NOT NULL, entityId TEXT NOT NULL,
                    change TEXT NOT NULL, reason TEXT NOT NULL, setAsideAt REAL NOT NULL
                )
                """)
        }
        return migrator
    }

    // MARK: Meta

    enum MetaKey: String {
        case cursor, deviceId, personId, replica, clock, timeZone, hubOffset
    }

    static func meta(_ key: MetaKey, _ db: Database) throws -> String? {
        try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [key.rawValue])
    }

    /// Milliseconds since 1970 on the hub's clock when this device's reads
    /// `now`: its own clock corrected by what the last sync taught it. A
    /// kiosk whose clock is hours ahead would otherwise have every change
    /// refused as from the future; one hours behind would have its changes
    /// ordered before what others did while it was offline.
    static func hubMilliseconds(at now: Date, _ db: Database) throws -> Int64 {
        let offset = try meta(.hubOffset, db).flatMap { Int64($0) } ?? 0
        return Int64((now.timeIntervalSince1970 * 1000).rounded(.down)) + offset
    }

    static func setMeta(_ key: MetaKey, _ value: String, _ db: Database) throws {
        try db.execute(sql: "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                       arguments: [key.rawValue, value])
    }

    /// Who this mirror belongs to, once the hub has said (`HearthClient.connect`).
    public func identity() async throws -> (deviceId: String, personId: String)? {
        try await writer.read { db in
            guard let device = try Self.meta(.deviceId, db), let person = try Self.meta(.personId, db) else { return nil }
            return (device, person)
        }
    }

    /// Remembers who this mirror belongs to; a mirror is one device's, so
    /// another device's token is refused rather than mixing two copies.
    func setIdentity(deviceId: String, personId: String, timeZone: String?) async throws {
        try await writer.write { db in
            if let existing = try Self.meta(.deviceId, db), existing != deviceId {
                throw HearthKitError.invalid("This mirror belongs to another device; give each device its own.")
            }
            try Self.setMeta(.deviceId, deviceId, db)
            try Self.setMeta(.personId, personId, db)
            if let timeZone { try Self.setMeta(.timeZone, timeZone, db) }
        }
    }

    /// The cursor of the last sync: 0 before the first.
    public func cursor() async throws -> Int64 {
        try await writer.read { db in try Self.meta(.cursor, db).flatMap { Int64($0) } ?? 0 }
    }

    /// Whether this mirror has ever synced (its first sync starts from a snapshot).
    public func hasSynced() async throws -> Bool {
        try await writer.read { db in try Self.meta(.cursor, db) != nil }
    }

    /// Changes waiting to reach the hub.
    public func pendingCount() async throws -> Int {
        try await writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM outbox") ?? 0 }
    }

    // MARK: Entities

    static func fields(_ entity: ChangeEntity, _ id: String, _ db: Database) throws -> [String: JSONValue]? {
        guard let text = try String.fetchOne(db, sql: "SELECT fields FROM entities WHERE entity = ? AND id = ?", arguments: [entity.rawValue, id]),
              case .object(let fields) = try JSONValue(jsonText: text) else { return nil }
        return fields
    }

    static func setFields(_ fields: [String: JSONValue], _ entity: ChangeEntity, _ id: String, _ db: Database) throws {
        try db.execute(sql: """
            INSERT INTO entities (entity, id, fields) VALUES (?, ?, ?)
            ON CONFLICT (entity, id) DO UPDATE SET fields = excluded.fields
            """, arguments: [entity.rawValue, id, try JSONValue.object(fields).jsonText()])
    }

    static func removeEntity(_ entity: ChangeEntity, _ id: String, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM entities WHERE entity = ? AND id = ?", arguments: [entity.rawValue, id])
        if entity == .note { try db.execute(sql: "DELETE FROM note_texts WHERE noteId = ?", arguments: [id]) }
    }
}
