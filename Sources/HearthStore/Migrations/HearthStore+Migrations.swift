import GRDB

extension HearthStore {
    /// Every schema change, in order. A migration that has shipped never changes;
    /// a new one is appended.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1 household and change log") { db in
            try db.create(table: "household") { table in
                table.primaryKey("id", .text)
                table.column("name", .text).notNull()
                table.column("timeZone", .text).notNull()
                table.column("createdAt", .integer).notNull()
            }
            // `seq` used AUTOINCREMENT so a number is never reused, even after
            // the newest rows are deleted: clients keep it as their cursor
            // (v23 keeps that without it: the newest is never deleted).
            try db.execute(sql: """
                CREATE TABLE changes (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    entity TEXT NOT NULL,
                    entityId TEXT NOT NULL,
                    op TEXT NOT NULL CHECK (op IN ('create', 'update', 'delete')),
                    payload TEXT NOT NULL CHECK (json_valid(payload)),
                    actor TEXT NOT NULL,
                    time INTEGER NOT NULL
                )
                """)
            try db.create(index: "changes_by_entity", on: "changes", columns: ["entity", "entityId"])
        }
        registerPeopleAndDevices(&migrator)
        registerNotes(&migrator)
        registerMedications(&migrator)
        registerNotek(&migrator)
        registerSync(&migrator)
        registerAlertLookups(&migrator)
        registerSearchApartFromTyping(&migrator)
        registerDoseCorrections(&migrator)
        registerAlertApps(&migrator)
        registerNoteSharing(&migrator)
        registerHouseholdAudit(&migrator)
        registerCareCircle(&migrator)
        registerScreen(&migrator)
        registerNoteCircles(&migrator)
        registerAwayFromHome(&migrator)
        registerAwayMessages(&migrator)
        registerEscalationSettings(&migrator)
        registerNoteTextApartFromTyping(&migrator)
        registerNoteStatesApart(&migrator)
        registerFewerPagesPerWrite(&migrator)
        return migrator
    }

    /// Names of the migrations this build knows, oldest first.
    public static var migrationNames: [String] { migrator.migrations }

    /// Names of the migrations applied to the open database.
    public func appliedMigrations() async throws -> [String] {
        try await pool.read { db in try Self.migrator.appliedMigrations(db) }
    }
}
