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

        try await expectEqual(store.appliedMigrations(), HearthStore.migrationNames)
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
            ("SELECT 1 FROM alerts WHERE onceKey = ?", ["dose-due:k"], "alerts_once"),
        ]
        for (sql, arguments, index) in lookups {
            let plan = try await store.read { db in
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments)
                    .map { $0["detail"] as String }.joined(separator: "; ")
            }
            #expect(plan.contains(index), "\(sql): \(plan)")
        }
    }

    /// v23: the change log without AUTOINCREMENT and doses stored by id,
    /// each index holding only the doses it is read for (issue 41: fewer
    /// pages written per dose). What the old tables held is all still there.
    @Test func tablesRebuiltByV23KeepEveryRow() async throws {
        let directory = try TemporaryDirectory()
        let senior = "00000000-0000-4000-8000-0000000000aa", medication = "00000000-0000-4000-8000-0000000000bb"
        // Given a hub's database from before v23: a planned dose taken, one
        // taken as needed, and a change log whose newest seq is 41
        do {
            let queue = try DatabaseQueue(path: directory.url.appendingPathComponent(HearthStore.fileName).path)
            try HearthStore.migrator.migrate(queue, upTo: "v22 note states apart from notes")
            try await queue.write { db in
                try db.execute(sql: "INSERT INTO people (id, name, role, createdAt) VALUES (?, 'Zosia', 'senior', 0)", arguments: [senior])
                try db.execute(sql: """
                    INSERT INTO medications (id, personId, name, strength, unit, form, instructions, appearance, stock, active, revision, createdAt, updatedAt)
                    VALUES (?, ?, 'Paracetamol', '500 mg', 'tablet', 'tablet', '', '', 20, 1, 1, 0, 0)
                    """, arguments: [medication, senior])
                try db.execute(sql: """
                    INSERT INTO doses (id, key, medicationId, personId, dueAt, amount, status, takenAt, createdAt, updatedAt)
                    VALUES ('00000000-0000-4000-8000-000000000001', 'planned-1', ?, ?, 1000, 1, 'taken', 1100, 0, 0),
                           ('00000000-0000-4000-8000-000000000002', NULL, ?, ?, NULL, 2, 'taken', 2000, 0, 0)
                    """, arguments: [medication, senior, medication, senior])
                try db.execute(sql: """
                    INSERT INTO alerts (id, kind, audience, personId, onceKey, raisedBy, raisedAt, notifiedAt, details)
                    VALUES ('00000000-0000-4000-8000-000000000003', 'sos', 'caregivers', ?, NULL, 'test', 0, 0, '{}'),
                           ('00000000-0000-4000-8000-000000000004', 'dose-due', 'senior', ?, 'dose-due:planned-1', 'test', 0, 0, '{}')
                    """, arguments: [senior, senior])
                for seq in [5, 41] {
                    try db.execute(sql: """
                        INSERT INTO changes (seq, entity, entityId, op, payload, actor, time) VALUES (?, 'person', ?, 'update', '{}', 'test', 0)
                        """, arguments: [seq, senior])
                }
            }
        }
        // When this hub opens it
        let store = try HearthStore(directory: directory.url)
        defer { try? store.close() }
        try await expectEqual(store.appliedMigrations(), HearthStore.migrationNames)
        // Then both doses read as before, by id, by key and in the history
        let plannedId = try #require(UUID(text: "00000000-0000-4000-8000-000000000001"))
        let seniorId = try #require(UUID(text: senior))
        let planned = try #require(try await store.dose(id: plannedId))
        expectEqual(planned.key, "planned-1")
        #expect(try await store.read { db in try HearthStore.dose(key: "planned-1", db)?.id } == planned.id)
        let history = try await store.doses(of: [seniorId], from: Date(millisecondsSince1970: 0),
                                            to: Date(millisecondsSince1970: 10_000))
        expectEqual(history.map(\.amount), [1, 2], "planned by due time, as needed by when taken")
        // And the log keeps its entries, the next change following the newest
        try await expectEqual(store.changes(after: 0, limit: 10).map(\.seq), [5, 41])
        try await store.ensureHousehold(name: "Nowak family", timeZone: "Europe/Warsaw")
        try await expectEqual(store.latestSeq(), 42)
        // And both alerts are still there, the once-key still unique
        #expect(try await store.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM alerts") } == 2)
        await #expect(throws: DatabaseError.self) {
            try await store.pool.write { db in
                try db.execute(sql: """
                    INSERT INTO alerts (id, kind, audience, personId, onceKey, raisedBy, raisedAt, notifiedAt, details)
                    VALUES ('00000000-0000-4000-8000-000000000005', 'dose-due', 'senior', ?, 'dose-due:planned-1', 'test', 0, 0, '{}')
                    """, arguments: [senior])
            }
        }
        let tables = try await store.read { db in
            try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE name IN ('alerts', 'changes', 'doses') ORDER BY name")
        }
        expectEqual(tables.count, 3)
        #expect(tables[0].contains("WITHOUT ROWID"))
        #expect(!tables[1].contains("AUTOINCREMENT"))
        #expect(tables[2].contains("WITHOUT ROWID"))
    }

    /// The doses' indexes hold only the doses each is read for; every read of
    /// doses still goes through one, not through every dose ever recorded.
    @Test func dosesAreReadThroughAnIndex() async throws {
        let directory = try TemporaryDirectory()
        let store = try HearthStore(directory: directory.url)
        defer { try? store.close() }
        let reads: [(sql: String, arguments: StatementArguments, index: String)] = [
            ("SELECT * FROM doses WHERE key = ?", ["k"], "doses_by_key"),
            ("SELECT * FROM doses WHERE personId = ? AND dueAt >= ? AND dueAt < ?", ["p", 0, 1], "doses_by_person_due"),
            ("SELECT * FROM doses WHERE medicationId IN (SELECT id FROM medications WHERE personId = ?) AND key IS NULL AND takenAt >= ? AND takenAt < ?",
             ["p", 0, 1], "doses_by_medication_taken"),
            ("SELECT takenAt FROM doses WHERE medicationId = ? AND key IS NULL AND status = 'taken' AND takenAt >= ?", ["m", 0],
             "doses_by_medication_taken"),
            // The newest taken dose, which carries the stock (v25): the index's last entry, not a sort.
            ("SELECT id FROM doses WHERE medicationId = ? AND takenAt IS NOT NULL ORDER BY takenAt DESC, id DESC LIMIT 1", ["m"],
             "doses_by_medication_taken"),
            ("SELECT \(HearthStore.medicationColumns) FROM \(HearthStore.medicationSource) WHERE m.id = ?", ["m"],
             "doses_by_medication_taken"),
        ]
        for (sql, arguments, index) in reads {
            let plan = try await store.read { db in
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments)
                    .map { $0["detail"] as String }.joined(separator: "; ")
            }
            #expect(plan.contains(index), "\(sql): \(plan)")
            #expect(!plan.contains("TEMP B-TREE"), "\(sql): \(plan)")
        }
    }

    /// v24: a change writes its row of the log and no index entry; the one
    /// index left on the log holds only note deletions, for sync's question
    /// "was this note purged while the device was away?".
    @Test func theChangeLogIsIndexedOnlyForNoteDeletions() async throws {
        let directory = try TemporaryDirectory()
        let store = try HearthStore(directory: directory.url)
        defer { try? store.close() }
        let indexes = try await store.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'changes' ORDER BY name")
        }
        expectEqual(indexes, ["changes_note_deletions"])
        let plan = try await store.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN SELECT EXISTS (SELECT 1 FROM changes WHERE entity = 'note' AND entityId = ? AND op = 'delete')",
                             arguments: ["n"]).map { $0["detail"] as String }.joined(separator: "; ")
        }
        #expect(plan.contains("changes_note_deletions"), "\(plan)")
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
        expectEqual(again, household)
        try await expectEqual(second.appliedMigrations(), HearthStore.migrationNames)
        #expect(try await second.read { db in
            try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name")
        } == schema)
        try await expectEqual(second.latestSeq(), 1, "only the first start appended a change")
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
        expectEqual(journal, "wal")
        expectEqual(synchronous, 2, "synchronous=FULL")
        expectEqual(foreignKeys, 1)
        #expect(FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("hearth.sqlite").path))
    }
}
