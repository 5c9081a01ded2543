import Foundation
import GRDB
import HearthCore
@testable import HearthStore
import HearthTestSupport
import Testing

/// Commits leave the write-ahead log to `LogCheckpointer`, which copies it
/// into the database file by itself once it holds 1000 pages (see its
/// comment for why).
@Suite struct LogCheckpointTests {
    @Test func theHubsConnectionsNeverCheckpointInACommit() async throws {
        let directory = try TemporaryDirectory()
        let store = try HearthStore(directory: directory.url)
        defer { try? store.close() }
        let writer = try await store.pool.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint") }
        let reader = try await store.read { db in try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint") }
        expectEqual(writer, 0)
        expectEqual(reader, 0)
    }

    @Test func aLogOfAThousandPagesReachesTheDatabaseFileWithoutAnyoneAsking() async throws {
        // Given a household whose name is changed again and again
        let directory = try TemporaryDirectory()
        let store = try HearthStore(directory: directory.url)
        defer { try? store.close() }
        try await store.ensureHousehold(name: "Dom", timeZone: "Europe/Warsaw")
        // When the log grows past 1000 pages (each change writes a few)
        var round = 0
        while store.checkpointer.lastOutcome == nil, round < 3000 {
            round += 1
            _ = try await store.updateHousehold(name: "Dom \(round)", timeZone: nil, as: .hubTerminal, by: "test")
        }
        // Then it was copied into the file, beside the writes, all of it
        let outcome = try #require(store.checkpointer.lastOutcome, "no checkpoint after \(round) changes")
        #expect(outcome.logPages >= 1000)
        expectEqual(outcome.copiedPages, outcome.logPages)
        // And the database file alone, without its log, holds one of the names
        let copy = try TemporaryDirectory()
        let name = try Self.nameInFileAlone(directory.url, copiedTo: copy.url.appendingPathComponent("alone.sqlite"))
        expectEqual(name?.hasPrefix("Dom "), true)
    }

    @Test func aFewChangesStayInTheLogAfterWritingPauses() async throws {
        // Given a hub whose database file holds the household's first name
        let directory = try TemporaryDirectory()
        let store = try HearthStore(directory: directory.url)
        try await store.ensureHousehold(name: "Dom", timeZone: "Europe/Warsaw")
        try store.checkpointer.checkpoint()
        let copy = try TemporaryDirectory()
        try expectEqual(Self.nameInFileAlone(directory.url, copiedTo: copy.url.appendingPathComponent("before.sqlite")), "Dom")
        // When the name changes twenty times (doses through a morning, say), and writing pauses
        for round in 1...20 {
            _ = try await store.updateHousehold(name: "Dom \(round)", timeZone: nil, as: .hubTerminal, by: "test")
        }
        try await Task.sleep(for: .milliseconds(500))
        // Then the file was not written again: the changes wait in the log,
        // to be copied in with many more
        try expectEqual(Self.nameInFileAlone(directory.url, copiedTo: copy.url.appendingPathComponent("after.sqlite")), "Dom")
        try await expectEqual(store.household()?.name, "Dom 20")
        // And when the hub stops, SQLite copies them in
        try store.close()
        try expectEqual(Self.nameInFileAlone(directory.url, copiedTo: copy.url.appendingPathComponent("stopped.sqlite")), "Dom 20")
    }

    /// The household's name as the database file says it, read from a copy
    /// of the file without its write-ahead log.
    static func nameInFileAlone(_ directory: URL, copiedTo copy: URL) throws -> String? {
        try FileManager.default.copyItem(at: directory.appendingPathComponent(HearthStore.fileName), to: copy)
        return try DatabaseQueue(path: copy.path).read { db in try String.fetchOne(db, sql: "SELECT name FROM household") }
    }
}
