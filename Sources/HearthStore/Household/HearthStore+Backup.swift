import Foundation
import GRDB
import HearthCore
#if canImport(Glibc)
import Glibc
#endif

/// Why a backup or a restore did not happen; the data is left as it was.
public enum BackupProblem: Error, CustomStringConvertible, Equatable {
    case missing(String)
    case destinationExists(String)
    case cannotCreate(String, reason: String)
    case notADatabase(String)
    case damaged(String, detail: String)
    case notHearth(String)
    case newerSchema(String, migration: String)
    /// A trigger or view Hearth's migrations did not make: it would run
    /// its own SQL inside the hub's writes.
    case foreignObject(String, kind: String, name: String)

    public var description: String {
        switch self {
        case .missing(let path): "\(path) does not exist"
        case .destinationExists(let path): "\(path) already exists; choose a new file name"
        case .cannotCreate(let path, let reason): "cannot create \(path): \(reason)"
        case .notADatabase(let path): "\(path) is not a Hearth backup (not an SQLite database)"
        case .damaged(let path, let detail): "\(path) is damaged: \(detail)"
        case .notHearth(let path): "\(path) is not a Hearth backup (it has no Hearth tables)"
        case .newerSchema(let path, let migration):
            "\(path) was made by a newer Hearth (it has \"\(migration)\"); upgrade this hub first"
        case .foreignObject(let path, let kind, let name):
            "\(path) holds a \(kind) \"\(name)\" that Hearth did not make; it is not restored"
        }
    }
}

extension HearthStore {
    /// Suffix of the previous database that `restore` keeps.
    public static let previousFileSuffix = ".bak"

    /// Copies the database into a new file with SQLite's online backup, while
    /// the hub goes on serving (in WAL mode the copy reads one consistent
    /// snapshot and writers are not blocked), then checks the copy. The copy
    /// is a single file (rollback journal, not WAL) readable only by its
    /// owner, as it holds the household's health data. It appears under its
    /// name only once complete and checked; an existing file is never replaced.
    public func backup(to destination: URL) throws {
        let partial = destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).partial-\(getpid())")
        if FileManager.default.fileExists(atPath: destination.path) {
            throw BackupProblem.destinationExists(destination.path)
        }
        try Self.createEmptyPrivateFile(partial)
        var finished = false
        defer { if !finished { Self.removeDatabaseFiles(partial) } }
        try Self.copyDatabase(from: pool, to: partial)
        try Self.verifyBackup(at: partial)
        // link() refuses an existing name, where rename() would overwrite one
        // that appeared meanwhile.
        guard hardLink(partial.path, destination.path) == 0 else {
            let failure = errno
            if failure == EEXIST { throw BackupProblem.destinationExists(destination.path) }
            throw BackupProblem.cannotCreate(destination.path, reason: String(cString: strerror(failure)))
        }
        Self.removeDatabaseFiles(partial)
        finished = true
    }

    /// Checks that `file` is a sound Hearth database this build can open:
    /// SQLite's integrity check passes, it has Hearth's tables, and every
    /// migration applied to it is one this build knows. An older schema is
    /// fine (opening it migrates it).
    public static func verifyBackup(at file: URL) throws {
        var configuration = Configuration()
        configuration.readonly = true
        let path = file.path
        guard FileManager.default.fileExists(atPath: path) else { throw BackupProblem.missing(path) }
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            try queue.read { db in
                let report = try String.fetchAll(db, sql: "PRAGMA integrity_check")
                guard report == ["ok"] else {
                    throw BackupProblem.damaged(path, detail: report.first ?? "integrity check gave no answer")
                }
                guard try db.tableExists("grdb_migrations"), try db.tableExists("household"), try db.tableExists("changes") else {
                    throw BackupProblem.notHearth(path)
                }
                let known = Set(migrationNames)
                let applied = try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")
                if let unknown = applied.first(where: { !known.contains($0) }) {
                    throw BackupProblem.newerSchema(path, migration: unknown)
                }
                // Triggers and views are code: only those the migrations it
                // went through made, word for word.
                let made = try triggersAndViews(madeBy: migrationNames.last(where: Set(applied).contains))
                for (name, object) in try triggersAndViews(db) where made[name] != object {
                    throw BackupProblem.foreignObject(path, kind: object.kind, name: name)
                }
            }
        } catch let problem as BackupProblem {
            throw problem
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw BackupProblem.notADatabase(path)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CORRUPT {
            throw BackupProblem.damaged(path, detail: error.message ?? "corrupt")
        }
    }

    /// Triggers and views by name, with their kind and SQL.
    static func triggersAndViews(_ db: Database) throws -> [String: SchemaObject] {
        try Row.fetchAll(db, sql: "SELECT type, name, sql FROM sqlite_master WHERE type IN ('trigger', 'view')")
            .reduce(into: [:]) { objects, row in objects[row["name"]] = SchemaObject(kind: row["type"], sql: row["sql"]) }
    }

    /// The triggers and views a database migrated up to `migration` holds.
    static func triggersAndViews(madeBy migration: String?) throws -> [String: SchemaObject] {
        guard let migration else { return [:] }
        let scratch = try DatabaseQueue()
        try migrator.migrate(scratch, upTo: migration)
        return try scratch.read { db in try triggersAndViews(db) }
    }

    struct SchemaObject: Equatable {
        var kind: String
        var sql: String?
    }

    /// The devices removed in the database in `directory`, read before a
    /// restore replaces it (none when there is no database).
    public static func revokedDevices(in directory: URL) throws -> [UUID] {
        let path = directory.appendingPathComponent(fileName).path
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in
            guard try db.tableExists("devices") else { return [] }
            return try String.fetchAll(db, sql: "SELECT id FROM devices WHERE revokedAt IS NOT NULL").compactMap(UUID.init(text:))
        }
    }

    /// Removes again, through the change log, every device in `ids` that is
    /// still paired here: a device removed after a backup was taken stays
    /// removed when that backup is restored. Returns how many were.
    @discardableResult
    public func keepRevoked(_ ids: [UUID], as restorer: PermissionPolicy.Actor, by origin: String) async throws -> Int {
        try await write(by: origin) { transaction in
            var revoked = 0
            for id in ids {
                guard let row = try Row.fetchOne(transaction.db.cachedStatement(sql: "SELECT personId, revokedAt FROM devices WHERE id = ?"),
                                                 arguments: [id.text]),
                      (row["revokedAt"] as Int64?) == nil, let owner = UUID(text: row["personId"] as String) else { continue }
                try PermissionPolicy.require(restorer, .delete, .device(owner: owner), what: "That device")
                try Self.revokeDevice(id: id.text, in: &transaction)
                revoked += 1
            }
            return revoked
        }
    }

    /// Replaces the database in `directory` with the one in `file`. The
    /// caller makes sure no hub serves `directory`. The previous database, if
    /// any, is kept as `hearth.sqlite.bak` (whole, including what its WAL
    /// held). Nothing is replaced until the new copy is complete and checked.
    public static func restore(from file: URL, into directory: URL) throws {
        try verifyBackup(at: file)
        let live = directory.appendingPathComponent(fileName)
        let incoming = directory.appendingPathComponent(fileName + ".restoring")
        removeDatabaseFiles(incoming)
        try createEmptyPrivateFile(incoming)
        var finished = false
        defer { if !finished { removeDatabaseFiles(incoming) } }
        var readOnly = Configuration()
        readOnly.readonly = true
        let source = try DatabaseQueue(path: file.path, configuration: readOnly)
        try copyDatabase(from: source, to: incoming)
        try source.close()
        try verifyBackup(at: incoming)

        if FileManager.default.fileExists(atPath: live.path) {
            let previous = directory.appendingPathComponent(fileName + previousFileSuffix)
            let previousPartial = directory.appendingPathComponent(fileName + previousFileSuffix + ".partial")
            removeDatabaseFiles(previousPartial)
            try createEmptyPrivateFile(previousPartial)
            do {
                let current = try DatabaseQueue(path: live.path)
                try copyDatabase(from: current, to: previousPartial)
                try current.close()
            } catch {
                removeDatabaseFiles(previousPartial)
                throw error
            }
            removeDatabaseFiles(previous)
            try moveFile(previousPartial, to: previous)
            // The old WAL must go before the new file takes the name: SQLite
            // would otherwise replay its frames onto the restored database.
            for suffix in ["-wal", "-shm"] {
                unlink(live.path + suffix)
            }
        }
        try moveFile(incoming, to: live)
        finished = true
    }

    /// Copies every page of `source` into the empty file at `path`, then
    /// makes the copy a self-contained single file.
    static func copyDatabase(from source: some DatabaseReader, to path: URL) throws {
        let copy = try DatabaseQueue(path: path.path)
        do {
            try source.backup(to: copy)
            try copy.writeWithoutTransaction { db in
                _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = DELETE")
            }
            try copy.close()
        } catch {
            try? copy.close()
            throw error
        }
    }

    /// Created before SQLite opens it, so the copy is never readable by
    /// others, whatever the umask.
    static func createEmptyPrivateFile(_ url: URL) throws {
        let descriptor = open(url.path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let failure = errno
            if failure == EEXIST { throw BackupProblem.destinationExists(url.path) }
            throw BackupProblem.cannotCreate(url.path, reason: String(cString: strerror(failure)))
        }
        closeDescriptor(descriptor)
    }

    static func removeDatabaseFiles(_ url: URL) {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            unlink(url.path + suffix)
        }
    }

    static func moveFile(_ from: URL, to: URL) throws {
        guard rename(from.path, to.path) == 0 else {
            throw BackupProblem.cannotCreate(to.path, reason: String(cString: strerror(errno)))
        }
    }
}

// At file scope, where `link` and `close` are the C functions rather than
// HearthStore's methods of the same names.
private func hardLink(_ existing: String, _ new: String) -> Int32 { link(existing, new) }
private func closeDescriptor(_ descriptor: Int32) { _ = close(descriptor) }
