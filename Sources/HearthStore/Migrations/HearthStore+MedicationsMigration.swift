import GRDB

extension HearthStore {
    /// Medications with their history, schedules in versions, recorded doses,
    /// alerts, and the household's reminder settings and clock correction.
    static func registerMedications(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v4 medications, doses and alerts") { db in
            try db.execute(sql: v4Schema)
        }
    }

    /// The v4 migration's tables, as shipped (a shipped migration never changes).
    static let v4Schema = """
        ALTER TABLE household ADD COLUMN graceMinutes INTEGER NOT NULL DEFAULT 30;
        ALTER TABLE household ADD COLUMN repeatMinutes INTEGER NOT NULL DEFAULT 10;
        -- Added to the system clock for the hub's own scheduling, set when
        -- someone taps "use this phone's time" (a Pi may boot years off).
        ALTER TABLE household ADD COLUMN clockOffsetMs INTEGER NOT NULL DEFAULT 0;
        CREATE TABLE medications (
            id TEXT PRIMARY KEY,
            personId TEXT NOT NULL REFERENCES people(id),
            name TEXT NOT NULL,
            strength TEXT NOT NULL,
            unit TEXT NOT NULL,
            form TEXT NOT NULL,
            instructions TEXT NOT NULL,
            appearance TEXT NOT NULL,
            stock REAL CHECK (stock IS NULL OR stock >= 0),
            packageSize REAL CHECK (packageSize IS NULL OR packageSize > 0),
            lowStockDays INTEGER,
            active INTEGER NOT NULL CHECK (active IN (0, 1)),
            revision INTEGER NOT NULL,
            createdAt INTEGER NOT NULL,
            updatedAt INTEGER NOT NULL
        );
        CREATE INDEX medications_by_person ON medications(personId);
        -- Every revision of a medication as it was, for the record.
        CREATE TABLE medication_revisions (
            medicationId TEXT NOT NULL REFERENCES medications(id),
            revision INTEGER NOT NULL,
            snapshot TEXT NOT NULL CHECK (json_valid(snapshot)),
            actor TEXT NOT NULL,
            time INTEGER NOT NULL,
            PRIMARY KEY (medicationId, revision)
        );
        CREATE TABLE schedules (
            id TEXT PRIMARY KEY,
            medicationId TEXT NOT NULL REFERENCES medications(id),
            createdAt INTEGER NOT NULL,
            -- Removed schedules stay, so doses planned by them still read.
            removedAt INTEGER
        );
        CREATE INDEX schedules_by_medication ON schedules(medicationId);
        -- An edit ends the current version and starts another, so doses
        -- already due keep their plan and later ones follow the new one.
        CREATE TABLE schedule_versions (
            scheduleId TEXT NOT NULL REFERENCES schedules(id),
            version INTEGER NOT NULL,
            pattern TEXT NOT NULL CHECK (json_valid(pattern)),
            amount REAL NOT NULL CHECK (amount > 0),
            startDate TEXT NOT NULL,
            endDate TEXT,
            activeFrom INTEGER NOT NULL,
            activeUntil INTEGER,
            PRIMARY KEY (scheduleId, version)
        );
        CREATE TABLE doses (
            id TEXT PRIMARY KEY,
            -- DueDose.key: one row per planned dose, whatever happens.
            key TEXT UNIQUE,
            medicationId TEXT NOT NULL REFERENCES medications(id),
            personId TEXT NOT NULL REFERENCES people(id),
            scheduleId TEXT REFERENCES schedules(id),
            dueAt INTEGER,
            plannedDate TEXT,
            plannedTime TEXT,
            amount REAL NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('due', 'snoozed', 'taken', 'skipped', 'missed')),
            takenAt INTEGER,
            reason TEXT,
            snoozedUntil INTEGER,
            recordedBy TEXT REFERENCES people(id),
            limitOverridden INTEGER NOT NULL DEFAULT 0,
            remindedAt INTEGER,
            missedAt INTEGER,
            createdAt INTEGER NOT NULL,
            updatedAt INTEGER NOT NULL,
            CHECK ((key IS NULL) = (dueAt IS NULL))
        );
        CREATE INDEX doses_by_person_due ON doses(personId, dueAt);
        CREATE INDEX doses_by_medication_taken ON doses(medicationId, takenAt);
        CREATE INDEX doses_waiting ON doses(status) WHERE status IN ('due', 'snoozed');
        CREATE TABLE alerts (
            id TEXT PRIMARY KEY,
            kind TEXT NOT NULL CHECK (kind IN ('sos', 'dose-due', 'dose-missed', 'low-stock', 'clock')),
            audience TEXT NOT NULL CHECK (audience IN ('senior', 'caregivers', 'keepers')),
            personId TEXT REFERENCES people(id),
            doseId TEXT REFERENCES doses(id),
            medicationId TEXT REFERENCES medications(id),
            -- "dose-due:<dose key>" and the like: an alert is raised once,
            -- whatever restarts or clock jumps happen.
            onceKey TEXT UNIQUE,
            raisedBy TEXT NOT NULL,
            raisedAt INTEGER NOT NULL,
            notifiedAt INTEGER NOT NULL,
            repeats INTEGER NOT NULL DEFAULT 0,
            details TEXT NOT NULL CHECK (json_valid(details)),
            acknowledgedAt INTEGER,
            acknowledgedBy TEXT REFERENCES people(id),
            respondedAt INTEGER,
            respondedBy TEXT REFERENCES people(id),
            resolvedAt INTEGER
        );
        CREATE INDEX alerts_by_time ON alerts(raisedAt);
        CREATE INDEX alerts_open ON alerts(kind) WHERE acknowledgedAt IS NULL AND resolvedAt IS NULL;
        """

    /// Open alerts by dose and by medication: answering a dose resolves its
    /// due and missed alerts and every dose taken looks for its
    /// medication's low-stock alert, and without these each read every
    /// alert the household ever had.
    static func registerAlertLookups(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v7 alert lookups") { db in
            try db.execute(sql: """
                CREATE INDEX alerts_unresolved_by_dose ON alerts(doseId) WHERE resolvedAt IS NULL;
                CREATE INDEX alerts_unresolved_by_medication ON alerts(medicationId) WHERE resolvedAt IS NULL;
                """)
        }
    }

    /// Who last put a recorded dose right, and when: the first recorder stays
    /// in `recordedBy`, so Today can say "changed by Anna at 21:02".
    static func registerDoseCorrections(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v9 dose corrections") { db in
            try db.execute(sql: """
                ALTER TABLE doses ADD COLUMN correctedBy TEXT;
                ALTER TABLE doses ADD COLUMN correctedAt INTEGER;
                """)
        }
    }
}
