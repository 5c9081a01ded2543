import Foundation
import GRDB
import HearthCore
@testable import HearthStore
import HearthTestSupport
import Testing

/// Commits leave the write-ahead log to `LogCheckpointer`, which copies it
/// into the database file by itself a moment later (see its comment for why).
@Suite struct LogCheckpointTests {
    @Test func theHubsConnectionsNeverCheckpointInACommit() async throws {
        let directory = try TemporaryDirectory()
        let store = try HearthStore(directory: directory.url)
        defer { try? store.close() }
        let writer = try await store.pool.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint") }
        let reader = try await store.read { db in try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint") }
        #expect(writer == 0)
        #expect(reader == 0)
    }

    @Test func writesReachTheDatabaseFileWithoutAnyoneAsking() async throws {
        // Given a household whose name was changed many times in a row
        let directory = try TemporaryDirectory()
        let store = try HearthStore(directory: directory.url)
        defer { try? store.close() }
        try await store.ensureHousehold(name: "Dom", timeZone: "Europe/Warsaw")
        for round in 1...200 {
            _ = try await store.updateHousehold(name: "Dom \(round)", timeZone: nil, as: .hubTerminal, by: "test")
        }
        // When a moment has passed, and nobody asked for a checkpoint
        // Then the database file alone, without its log, holds the last name
        let copy = try TemporaryDirectory()
        var name: String?
        for attempt in 0..<100 where name != "Dom 200" {
            if attempt > 0 { try await Task.sleep(for: .milliseconds(50)) }
            name = try? Self.nameInFileAlone(directory.url, copiedTo: copy.url.appendingPathComponent("\(attempt).sqlite"))
        }
        #expect(name == "Dom 200", "the log was copied into the file within 5 s of the writes")
        let outcome = try #require(store.checkpointer.lastOutcome)
        #expect(outcome.copiedPages == outcome.logPages)
    }

    @Test func steadyWritingIsCheckpointedWithoutWaitingForAPause() async throws {
        // Given a checkpointer that waits for 300 ms without writes, or 600 ms at most
        let directory = try TemporaryDirectory()
        let store = try HearthStore(directory: directory.url)
        defer { try? store.close() }
        try await store.ensureHousehold(name: "Dom", timeZone: "Europe/Warsaw")
        let checkpointer = try LogCheckpointer(path: directory.url.appendingPathComponent(HearthStore.fileName).path,
                                               pause: .milliseconds(300), longest: .milliseconds(600))
        defer { try? checkpointer.close() }
        // When someone writes every 50 ms, never pausing (given up after 15 s:
        // a full parallel test run can hold up the checkpointer's thread)
        var checkpointedWhileWriting = false
        let clock = ContinuousClock()
        let end = clock.now + .seconds(15)
        var round = 0
        while clock.now < end, !checkpointedWhileWriting {
            round += 1
            _ = try await store.updateHousehold(name: "Dom \(round)", timeZone: nil, as: .hubTerminal, by: "test")
            checkpointer.committed()
            if let outcome = checkpointer.lastOutcome, outcome.logPages > 0 { checkpointedWhileWriting = true }
            try await Task.sleep(for: .milliseconds(50))
        }
        // Then the log was still copied into the file meanwhile
        #expect(checkpointedWhileWriting)
    }

    /// The household's name as the database file says it, read from a copy
    /// of the file without its write-ahead log.
    static func nameInFileAlone(_ directory: URL, copiedTo copy: URL) throws -> String? {
        try FileManager.default.copyItem(at: directory.appendingPathComponent(HearthStore.fileName), to: copy)
        return try DatabaseQueue(path: copy.path).read { db in try String.fetchOne(db, sql: "SELECT name FROM household") }
    }
}
