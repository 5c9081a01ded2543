import Foundation
import GRDB
import Logging

/// The database file's page size: 2 KB, not SQLite's default 4 KB.
///
/// Why: a commit appends every page it touched to the write-ahead log, and
/// the kernel writes the log back in 4 KB blocks at the commit's fsync. A
/// dose touches five or six b-tree pages (its row, its index entry, its
/// change, page 1) but changes only a few hundred bytes of each; with 4 KB
/// pages it wrote 24 KB to an SD card, with 2 KB pages 19 KB, and a
/// keystroke's share of typing a third less (`make bench-writes`). Smaller
/// still (1 KB) deepens every b-tree and splits the change log's rows over
/// pages for less gain. The page cache is sized in bytes, so memory stays.
enum StorePageSize {
    static let bytes = 2048

    /// A hub's database made with 4 KB pages (before this size was chosen,
    /// or restored from such a backup) is rewritten once with 2 KB pages
    /// before the store opens it. A page size is fixed while the file is in
    /// WAL mode, so the rewrite leaves WAL mode, sets the size, VACUUMs (one
    /// transaction: a power cut leaves the old file whole) and the store
    /// then turns WAL mode on again.
    ///
    /// Skipped, the file left as it is and still served, when another
    /// process has it open (SQLite will not leave WAL mode then) or the
    /// rewrite fails (a full disk): the page size saves writes, it is not
    /// worth a hub that will not start.
    static func rewriteIfNeeded(path: String, logger: Logger) {
        guard let size = try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber, size.intValue > 0 else {
            return // a new database: `HearthStore.configuration()` sets the size before its first page
        }
        do {
            var configuration = Configuration()
            configuration.label = "hearth.page-size"
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            let from = try queue.writeWithoutTransaction { db -> Int? in
                let current = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? bytes
                guard current != bytes else { return nil }
                guard try String.fetchOne(db, sql: "PRAGMA journal_mode = DELETE") == "delete" else {
                    throw RewriteSkipped.fileInUse
                }
                // VACUUM builds the new file in a temporary database: in
                // memory, since a hardened service's temporary folders may
                // be small or missing. A household's file is a few MB.
                try db.execute(sql: "PRAGMA temp_store = MEMORY")
                try db.execute(sql: "PRAGMA page_size = \(bytes)")
                try db.execute(sql: "VACUUM")
                return current
            }
            if let from {
                logger.notice("database rewritten with \(bytes)-byte pages (was \(from)), to write less to the disk")
            }
        } catch {
            logger.warning("database kept its page size: \(error)")
        }
    }

    enum RewriteSkipped: Error, CustomStringConvertible {
        case fileInUse
        var description: String { "another process has the database open" }
    }
}
