import GRDB

extension HearthStore {
    /// Offline-first sync (issue: sync API and HearthKit): the clocks that
    /// decide which write of a field wins, and the pushes already applied.
    static func registerSync(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v6 sync") { db in
            try db.execute(sql: """
                -- The hybrid logical clock reading of the last write of each
                -- field that sync can change (HybridTime text, which sorts as
                -- the readings do). A field with no row was never changed
                -- after it was created.
                CREATE TABLE sync_clocks (
                    entity TEXT NOT NULL,
                    entityId TEXT NOT NULL,
                    field TEXT NOT NULL,
                    hlc TEXT NOT NULL,
                    PRIMARY KEY (entity, entityId, field)
                ) WITHOUT ROWID;
                -- Every change a device pushed, by its opId, with what became of
                -- it: a retried push gets the same answer and writes nothing.
                CREATE TABLE sync_pushes (
                    opId TEXT PRIMARY KEY NOT NULL,
                    deviceId TEXT NOT NULL,
                    -- The change as sent, canonical JSON; the same opId with
                    -- other content is refused.
                    digest TEXT NOT NULL,
                    result TEXT NOT NULL,
                    time INTEGER NOT NULL
                ) WITHOUT ROWID;
                CREATE INDEX sync_pushes_by_time ON sync_pushes (time);
                -- Changes up to this seq may have been folded into later ones
                -- (see HearthStore.compactChanges); a cursor before it must resync.
                ALTER TABLE household ADD COLUMN changesCompactedThrough INTEGER NOT NULL DEFAULT 0;
                """)
        }
    }
}
