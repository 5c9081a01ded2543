import Foundation
import GRDB
import HearthCore
@testable import HearthStore
import HearthTestSupport
import Testing

/// The database file has 2 KB pages, so a commit writes less to an SD card
/// (issue 41, `StorePageSize`); a hub's older file with 4 KB pages is
/// rewritten once when the hub opens it, losing nothing.
@Suite struct StorePageSizeTests {
    @Test func aNewHubsDatabaseHasTwoKilobytePagesInWALMode() async throws {
        let directory = try TemporaryDirectory()
        let home = try await StockCarriedByDosesTests.home(directory)
        let (size, mode) = try await home.store.read { db in
            (try Int.fetchOne(db, sql: "PRAGMA page_size"), try String.fetchOne(db, sql: "PRAGMA journal_mode"))
        }
        try home.store.close()
        expectEqual(size, 2048)
        expectEqual(mode, "wal")
        try expectEqual(Self.file(directory.url), File(pageSize: 2048, journalMode: "wal", integrity: "ok"))
    }

    @Test func aFileWithFourKilobytePagesIsRewrittenOnceAndKeepsEverything() async throws {
        // Given a household's file with 4 KB pages: people, medications,
        // doses taken and their stock carried by the newest one, a note
        let directory = try TemporaryDirectory()
        let home = try await StockCarriedByDosesTests.home(directory)
        _ = try await home.store.takeAsNeeded(medicationId: home.asNeeded.id, takenAt: nil, override: false, reason: nil, as: home.caregiver, by: "t")
        _ = try await home.store.createNote(as: .noteMaker(home.home.senior.id), title: "Zakupy", text: "mleko 🥛",
                                            visibility: .shared, pinned: false, by: "t")
        let stockBefore = try await home.store.medication(id: home.asNeeded.id)?.stock
        try home.store.close()
        try Self.rewrite(directory.url, pageSize: 4096)
        try expectEqual(Self.file(directory.url).pageSize, 4096)
        let before = try Self.rows(directory.url)

        // When the hub opens it
        let store = try HearthStore(directory: directory.url)
        // Then it has 2 KB pages, in WAL mode, and every row is as it was
        let pageSize = try await store.read { db in try Int.fetchOne(db, sql: "PRAGMA page_size") }
        expectEqual(pageSize, 2048)
        try await expectEqual(store.medication(id: home.asNeeded.id)?.stock, stockBefore)
        try store.close()
        try expectEqual(Self.file(directory.url), File(pageSize: 2048, journalMode: "wal", integrity: "ok"))
        try expectEqual(Self.rows(directory.url), before)
        // And it is written to as before
        let again = try HearthStore(directory: directory.url)
        _ = try await again.updateHousehold(name: "Dom Zosi", timeZone: nil, as: .hubTerminal, by: "t")
        try again.close()
        try expectEqual(Self.file(directory.url), File(pageSize: 2048, journalMode: "wal", integrity: "ok"))
        try expectEqual(Self.rows(directory.url)["household"]?.first?.contains("Dom Zosi"), true)
    }

    @Test func aFileAnotherProcessHoldsOpenKeepsItsPagesAndIsStillServed() async throws {
        // Given a 4 KB file that another connection has open in WAL mode
        // (an admin command while the hub starts, say)
        let directory = try TemporaryDirectory()
        let home = try await StockCarriedByDosesTests.home(directory)
        try home.store.close()
        try Self.rewrite(directory.url, pageSize: 4096)
        let other = try DatabasePool(path: directory.url.appendingPathComponent(HearthStore.fileName).path)
        _ = try await other.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM medications") }

        // When the hub opens it, then it is left with its pages and served
        let store = try HearthStore(directory: directory.url)
        #expect(try await store.read { db in try Int.fetchOne(db, sql: "PRAGMA page_size") } == 4096)
        try await expectEqual(store.medication(id: home.planned.id)?.name, "Metformina")
        try store.close()
        try other.close()
        // And the next time the hub opens it alone, it is rewritten
        let again = try HearthStore(directory: directory.url)
        #expect(try await again.read { db in try Int.fetchOne(db, sql: "PRAGMA page_size") } == 2048)
        try again.close()
    }

    struct File: Equatable {
        var pageSize: Int?
        var journalMode: String?
        var integrity: String?
    }

    static func file(_ directory: URL) throws -> File {
        let queue = try DatabaseQueue(path: directory.appendingPathComponent(HearthStore.fileName).path)
        defer { try? queue.close() }
        return try queue.read { db in
            File(pageSize: try Int.fetchOne(db, sql: "PRAGMA page_size"),
                 journalMode: try String.fetchOne(db, sql: "PRAGMA journal_mode"),
                 integrity: try String.fetchOne(db, sql: "PRAGMA integrity_check"))
        }
    }

    /// Gives the file another page size, as SQLite must: out of WAL mode, VACUUM, back.
    static func rewrite(_ directory: URL, pageSize: Int) throws {
        let queue = try DatabaseQueue(path: directory.appendingPathComponent(HearthStore.fileName).path)
        try queue.writeWithoutTransaction { db in
            _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = DELETE")
            try db.execute(sql: "PRAGMA page_size = \(pageSize)")
            try db.execute(sql: "VACUUM")
            _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
        }
        try queue.close()
    }

    /// Every table's rows, each table's in its stored order.
    static func rows(_ directory: URL) throws -> [String: [String]] {
        let queue = try DatabaseQueue(path: directory.appendingPathComponent(HearthStore.fileName).path)
        defer { try? queue.close() }
        return try queue.read { db in
            let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%'")
            var rows: [String: [String]] = [:]
            for table in tables {
                rows[table] = try Row.fetchAll(db, sql: "SELECT * FROM \"\(table)\"").map(\.description)
            }
            return rows
        }
    }
}
