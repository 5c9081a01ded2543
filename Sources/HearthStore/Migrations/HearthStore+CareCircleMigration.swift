import GRDB

extension HearthStore {
    /// The care circle's own settings, after the audit (v12): a senior who
    /// manages her own medications and invites her caregivers (v13), a
    /// caregiver's own name for her senior (v14), and devices a senior's code
    /// paired waiting for an admin's approval (v15).
    static func registerCareCircle(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v13 seniors who manage their own medications, and invite their caregivers") { db in
            try db.execute(sql: """
                ALTER TABLE people ADD COLUMN managesOwnMedications INTEGER NOT NULL DEFAULT 0 CHECK (managesOwnMedications IN (0, 1));
                -- A code a senior made for someone new who will look after her:
                -- whoever redeems it is linked to her, and to no one else.
                ALTER TABLE pairing_codes ADD COLUMN linkToSeniorId TEXT REFERENCES people(id);
                """)
        }
        migrator.registerMigration("v14 a caregiver's own name for a senior") { db in
            // Seen only by that caregiver: never in the change log or the audit.
            try db.execute(sql: "ALTER TABLE care_links ADD COLUMN alias TEXT")
        }
        migrator.registerMigration("v15 devices a senior invited, awaiting an admin's approval") { db in
            try db.execute(sql: """
                ALTER TABLE pairing_codes ADD COLUMN needsApproval INTEGER NOT NULL DEFAULT 0 CHECK (needsApproval IN (0, 1));
                ALTER TABLE devices ADD COLUMN awaitingApproval INTEGER NOT NULL DEFAULT 0 CHECK (awaitingApproval IN (0, 1));
                """)
        }
    }
}
