import Foundation
import GRDB
import HearthCore
@testable import HearthStore
import Testing

@Suite struct MigrationTests {
    @Test func anEmptyFileReachesTheLatestSchema() async throws {
        let directory = try TemporaryDirectory()
        let store = try HearthStore(directory: directory.url)
        defer { try? store.close() }

        #expect(try await store.appliedMigrations() == HearthStore.migrationNames)
        let tables = try await store.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        }
        #expect(tables.contains("household"))
        #expect(tables.contains("changes"))
    }

    @Test func openingAgainChangesNothing() async throws {
        let directory = try TemporaryDirectory()
        let first = try HearthStore(directory: directory.url)
        let household = try await first.ensureHousehold(name: "Nowak family", timeZone: "Europe/Warsaw")
        let schema = try await first.read { db in
            try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name")
        }
        try first.close()

        let second = try HearthStore(directory: directory.url)
        defer { try? second.close() }
        let again = try await second.ensureHousehold(name: "Another name", timeZone: "America/New_York")
        #expect(again == household)
        #expect(try await second.appliedMigrations() == HearthStore.migrationNames)
        #expect(try await second.read { db in
            try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name")
        } == schema)
        #expect(try await second.latestSeq() == 1, "only the first start appended a change")
    }

    @Test func theDatabaseIsSetUpForPowerCuts() async throws {
        let directory = try TemporaryDirectory()
        let store = try HearthStore(directory: directory.url)
        defer { try? store.close() }
        let (journal, synchronous, foreignKeys) = try await store.pool.write { db in
            (try String.fetchOne(db, sql: "PRAGMA journal_mode"),
             try Int.fetchOne(db, sql: "PRAGMA synchronous"),
             try Int.fetchOne(db, sql: "PRAGMA foreign_keys"))
        }
        #expect(journal == "wal")
        #expect(synchronous == 2, "synchronous=FULL")
        #expect(foreignKeys == 1)
        #expect(FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("hearth.sqlite").path))
    }
}
