import Foundation
import GRDB
import HearthCore
@testable import HearthStore
import HearthTestSupport
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

    /// Answering a dose and taking one look up open alerts of that dose or
    /// medication: through an index, not by reading every alert ever raised.
    @Test func openAlertsAreLookedUpByIndex() async throws {
        let directory = try TemporaryDirectory()
        let store = try HearthStore(directory: directory.url)
        defer { try? store.close() }
        let lookups: [(sql: String, arguments: StatementArguments, index: String)] = [
            ("SELECT * FROM alerts WHERE medicationId = ? AND kind = 'low-stock' AND resolvedAt IS NULL", ["m"], "alerts_unresolved_by_medication"),
            ("SELECT * FROM alerts WHERE medicationId = ? AND kind = 'dose-due' AND resolvedAt IS NULL", ["m"], "alerts_unresolved_by_medication"),
            ("SELECT * FROM alerts WHERE doseId = ? AND kind = ? AND resolvedAt IS NULL", ["d", "dose-due"], "alerts_unresolved_by_dose"),
        ]
        for (sql, arguments, index) in lookups {
            let plan = try await store.read { db in
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments)
                    .map { $0["detail"] as String }.joined(separator: "; ")
            }
            #expect(plan.contains(index), "\(sql): \(plan)")
        }
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
