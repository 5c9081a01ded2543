import Foundation
import GRDB
import HearthCore
@testable import HearthStore
import HearthTestSupport
import Testing

@Suite struct BackupTests {
    static func rows(_ store: HearthStore) async throws -> [String] {
        try await store.read { db in
            try String.fetchAll(db, sql: "SELECT seq || ' ' || entity || ' ' || entityId || ' ' || payload FROM changes ORDER BY seq")
                + String.fetchAll(db, sql: "SELECT id || ' ' || name FROM people ORDER BY id")
        }
    }

    @Test func aBackupTakenWhileWritingRestoresToTheSameRows() async throws {
        // Given a store that is being written to
        let directory = try TemporaryDirectory()
        let store = try HearthStore(directory: directory.url.appendingPathComponent("live"))
        try await store.ensureHousehold(name: "Home", timeZone: "Europe/Warsaw")
        let writer = Task {
            for number in 0..<40 { _ = try await store.addPerson(name: "Person \(number)", role: .caregiver, as: .hubTerminal, by: "test") }
        }
        // When it is backed up mid-stream
        try await Task.sleep(for: .milliseconds(5))
        let file = directory.url.appendingPathComponent("hearth-backup.sqlite")
        try store.backup(to: file)
        try await writer.value
        try store.close()

        // Then the backup restores into a fresh directory with exactly the rows it held
        let snapshot = try DatabaseQueue(path: file.path)
        let backedUp = try await snapshot.read { db in
            try String.fetchAll(db, sql: "SELECT seq || ' ' || entity || ' ' || entityId || ' ' || payload FROM changes ORDER BY seq")
                + String.fetchAll(db, sql: "SELECT id || ' ' || name FROM people ORDER BY id")
        }
        try snapshot.close()
        let fresh = directory.url.appendingPathComponent("fresh")
        try FileManager.default.createDirectory(at: fresh, withIntermediateDirectories: true)
        try HearthStore.restore(from: file, into: fresh)
        let restored = try HearthStore(directory: fresh)
        defer { try? restored.close() }
        try await expectEqual(Self.rows(restored), backedUp)
        #expect(!backedUp.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: fresh.appendingPathComponent("hearth.sqlite.bak").path),
                "there was nothing to keep")
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        expectEqual(mode, 0o600, "a backup holds health data: owner only")
    }

    @Test func restoringKeepsThePreviousDatabaseWhole() async throws {
        let directory = try TemporaryDirectory()
        let old = try HearthStore(directory: directory.url)
        try await old.ensureHousehold(name: "Home", timeZone: "Europe/Warsaw")
        let file = directory.url.appendingPathComponent("backup.sqlite")
        try old.backup(to: file)
        _ = try await old.addPerson(name: "Added after the backup", role: .senior, as: .hubTerminal, by: "test")
        try old.close()

        try HearthStore.restore(from: file, into: directory.url)

        let previous = try DatabaseQueue(path: directory.url.appendingPathComponent("hearth.sqlite.bak").path)
        #expect(try await previous.read { db in try String.fetchAll(db, sql: "SELECT name FROM people") } == ["Added after the backup"])
        try previous.close()
        let restored = try HearthStore(directory: directory.url)
        defer { try? restored.close() }
        #expect(try await restored.people().isEmpty)
    }

    @Test func anExistingFileIsNeverOverwritten() async throws {
        let directory = try TemporaryDirectory()
        let store = try HearthStore(directory: directory.url)
        defer { try? store.close() }
        let file = directory.url.appendingPathComponent("taken")
        try Data("keep me".utf8).write(to: file)
        #expect(throws: BackupProblem.destinationExists(file.path)) { try store.backup(to: file) }
        try expectEqual(String(contentsOf: file, encoding: .utf8), "keep me")
    }

    @Test func restoreRefusesFilesThatAreNotHearthBackups() async throws {
        let directory = try TemporaryDirectory()
        let absent = directory.url.appendingPathComponent("typo.sqlite")
        #expect(throws: BackupProblem.missing(absent.path)) { try HearthStore.restore(from: absent, into: directory.url) }

        let text = directory.url.appendingPathComponent("notes.txt")
        try Data(String(repeating: "not a database\n", count: 100).utf8).write(to: text)
        #expect(throws: BackupProblem.notADatabase(text.path)) { try HearthStore.restore(from: text, into: directory.url) }

        let other = directory.url.appendingPathComponent("other.sqlite")
        let queue = try DatabaseQueue(path: other.path)
        try await queue.write { db in try db.execute(sql: "CREATE TABLE photos (id INTEGER)") }
        try queue.close()
        #expect(throws: BackupProblem.notHearth(other.path)) { try HearthStore.restore(from: other, into: directory.url) }

        let newer = directory.url.appendingPathComponent("newer.sqlite")
        let store = try HearthStore(directory: directory.url.appendingPathComponent("newer-hub"))
        try store.backup(to: newer)
        try store.close()
        let future = try DatabaseQueue(path: newer.path)
        try await future.write { db in try db.execute(sql: "INSERT INTO grdb_migrations VALUES ('v99 from the future')") }
        try future.close()
        #expect(throws: BackupProblem.newerSchema(newer.path, migration: "v99 from the future")) {
            try HearthStore.restore(from: newer, into: directory.url)
        }
        #expect(!FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("hearth.sqlite").path),
                "a refused restore creates nothing")
    }
}
