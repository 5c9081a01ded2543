import GRDB

extension HearthStore {
    /// Notek position identifiers of notes' characters (issue: Notek
    /// compatibility). Notek clients address characters by these; the hub
    /// must give the same character the same identifier after a restart.
    static func registerNotek(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v5 notek positions") { db in
            try db.execute(sql: """
                CREATE TABLE notek_positions (
                    noteId TEXT NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
                    -- The character's CRDT id.
                    replica INTEGER NOT NULL,
                    counter INTEGER NOT NULL,
                    -- The identifier as Notek sends it: u8 depth, then (u32 ident, u8 site) each.
                    position BLOB NOT NULL,
                    PRIMARY KEY (noteId, replica, counter)
                ) WITHOUT ROWID
                """)
        }
    }
}
