import GRDB

extension HearthStore {
    /// Fewer pages written by every change, for a Pi's SD card (issue 41):
    /// a dose taken as needed wrote 9 pages of the log, 5 after v23, 4
    /// after v24 and 3 after v25; an SOS from raised to acknowledged 21, 13
    /// after v23.
    static func registerFewerPagesPerWrite(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v23 fewer pages written per change") { db in
            // The change log without AUTOINCREMENT, whose counter in
            // sqlite_sequence was one more page rewritten by every change.
            // A seq is still never given twice: the next is the newest + 1,
            // and the newest change is never deleted (`compactChanges` keeps
            // it, as it has since v1, so the counter never ran ahead of it).
            try db.execute(sql: """
                CREATE TABLE changes_new (
                    seq INTEGER PRIMARY KEY,
                    entity TEXT NOT NULL,
                    entityId TEXT NOT NULL,
                    op TEXT NOT NULL CHECK (op IN ('create', 'update', 'delete')),
                    payload TEXT NOT NULL CHECK (json_valid(payload)),
                    actor TEXT NOT NULL,
                    time INTEGER NOT NULL
                );
                INSERT INTO changes_new (seq, entity, entityId, op, payload, actor, time)
                    SELECT seq, entity, entityId, op, payload, actor, time FROM changes;
                DROP TABLE changes;
                ALTER TABLE changes_new RENAME TO changes;
                CREATE INDEX changes_by_entity ON changes(entity, entityId);
                """)
            // Doses stored by their id (WITHOUT ROWID: no separate index from
            // id to row), and each index holding only the doses it is read
            // for: a planned dose's key and due time (an as-needed dose has
            // neither), and a taken dose's time (a skipped one has none).
            try db.execute(sql: """
                CREATE TABLE doses_new (
                    id TEXT PRIMARY KEY,
                    -- DueDose.key: one row per planned dose, whatever happens.
                    key TEXT,
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
                    correctedBy TEXT,
                    correctedAt INTEGER,
                    CHECK ((key IS NULL) = (dueAt IS NULL))
                ) WITHOUT ROWID;
                INSERT INTO doses_new (id, key, medicationId, personId, scheduleId, dueAt, plannedDate, plannedTime, amount,
                    status, takenAt, reason, snoozedUntil, recordedBy, limitOverridden, remindedAt, missedAt, createdAt,
                    updatedAt, correctedBy, correctedAt)
                    SELECT id, key, medicationId, personId, scheduleId, dueAt, plannedDate, plannedTime, amount,
                    status, takenAt, reason, snoozedUntil, recordedBy, limitOverridden, remindedAt, missedAt, createdAt,
                    updatedAt, correctedBy, correctedAt FROM doses;
                DROP TABLE doses;
                ALTER TABLE doses_new RENAME TO doses;
                CREATE UNIQUE INDEX doses_by_key ON doses(key) WHERE key IS NOT NULL;
                CREATE INDEX doses_by_person_due ON doses(personId, dueAt) WHERE dueAt IS NOT NULL;
                CREATE INDEX doses_by_medication_taken ON doses(medicationId, takenAt) WHERE takenAt IS NOT NULL;
                CREATE INDEX doses_waiting ON doses(status) WHERE status IN ('due', 'snoozed');
                """)
            // Alerts the same way: an SOS has no once-key, dose or
            // medication, so it is in none of their indexes (an SOS raised,
            // answered and acknowledged wrote 21 pages, now 13).
            try db.execute(sql: """
                CREATE TABLE alerts_new (
                    id TEXT PRIMARY KEY,
                    kind TEXT NOT NULL CHECK (kind IN ('sos', 'dose-due', 'dose-missed', 'low-stock', 'clock')),
                    audience TEXT NOT NULL CHECK (audience IN ('senior', 'caregivers', 'keepers')),
                    personId TEXT REFERENCES people(id),
                    doseId TEXT REFERENCES doses(id),
                    medicationId TEXT REFERENCES medications(id),
                    -- "dose-due:<dose key>" and the like: an alert is raised once,
                    -- whatever restarts or clock jumps happen.
                    onceKey TEXT,
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
                ) WITHOUT ROWID;
                INSERT INTO alerts_new (id, kind, audience, personId, doseId, medicationId, onceKey, raisedBy, raisedAt,
                    notifiedAt, repeats, details, acknowledgedAt, acknowledgedBy, respondedAt, respondedBy, resolvedAt)
                    SELECT id, kind, audience, personId, doseId, medicationId, onceKey, raisedBy, raisedAt,
                    notifiedAt, repeats, details, acknowledgedAt, acknowledgedBy, respondedAt, respondedBy, resolvedAt FROM alerts;
                DROP TABLE alerts;
                ALTER TABLE alerts_new RENAME TO alerts;
                CREATE UNIQUE INDEX alerts_once ON alerts(onceKey) WHERE onceKey IS NOT NULL;
                CREATE INDEX alerts_by_time ON alerts(raisedAt);
                CREATE INDEX alerts_open ON alerts(kind) WHERE acknowledgedAt IS NULL AND resolvedAt IS NULL;
                CREATE INDEX alerts_unresolved_by_dose ON alerts(doseId) WHERE resolvedAt IS NULL AND doseId IS NOT NULL;
                CREATE INDEX alerts_unresolved_by_medication ON alerts(medicationId)
                    WHERE resolvedAt IS NULL AND medicationId IS NOT NULL;
                """)
        }
        // Every change also wrote its entry in changes_by_entity, on a leaf
        // of its own (a dose two: its own and its medication's stock). The
        // index served a first sync's snapshot and the daily compaction, which
        // group the whole log by entity and are as quick sorting it (a log
        // compacted daily holds about one row per thing the household ever
        // had), and one question about a single note: was it deleted? That
        // one keeps an index written only when a note is deleted.
        migrator.registerMigration("v24 the change log without its entity index") { db in
            try db.execute(sql: """
                DROP INDEX changes_by_entity;
                CREATE INDEX changes_note_deletions ON changes(entityId) WHERE entity = 'note' AND op = 'delete';
                """)
        }
        // A dose rewrote its medication's row for the stock, one page of
        // every dose's five. The newest taken dose of a medication now
        // carries the stock after it (`stockAfter`, with the seq of the
        // change that counted it); the medication's own `stock` is the base,
        // written with its `stockSeq` by edits, refills and every count that
        // is not the newest (`HearthStore.takeFromStock` says the rule).
        // Doses already stored carry nothing: the base is the stock as it was.
        migrator.registerMigration("v25 a dose carries its medication's stock") { db in
            try db.execute(sql: """
                ALTER TABLE medications ADD COLUMN stockSeq INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE doses ADD COLUMN stockAfter REAL;
                ALTER TABLE doses ADD COLUMN stockSeq INTEGER;
                """)
        }
    }
}
