import GRDB

extension HearthStore {
    /// How people are told away from home (v18): each person's own choice of
    /// texts and push, with her secret push topic once she chose push, and
    /// the household's emergency contacts, in the admins' order.
    static func registerAwayFromHome(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v18 away from home: choices and emergency contacts") { db in
            try db.execute(sql: """
                -- No row: she chose nothing, and is told only at home.
                CREATE TABLE away_choices (
                    personId TEXT PRIMARY KEY REFERENCES people(id),
                    sms INTEGER NOT NULL CHECK (sms IN (0, 1)),
                    push INTEGER NOT NULL CHECK (push IN (0, 1)),
                    pushTopic TEXT UNIQUE
                ) WITHOUT ROWID;
                CREATE TABLE emergency_contacts (
                    id TEXT PRIMARY KEY,
                    position INTEGER NOT NULL UNIQUE CHECK (position >= 0),
                    name TEXT NOT NULL,
                    phone TEXT NOT NULL
                ) WITHOUT ROWID;
                """)
        }
    }

    /// What the escalation ladder sent away from home (v19): one row per
    /// rung (an alert, a channel, a recipient), so a restarted hub never
    /// sends a rung twice; the reply code a caregiver's text carries; and
    /// the replies that came, without their words, to hold back a flood.
    static func registerAwayMessages(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v19 away from home: messages sent and replies") { db in
            try db.execute(sql: """
                CREATE TABLE away_messages (
                    id TEXT PRIMARY KEY,
                    alertId TEXT NOT NULL,
                    channel TEXT NOT NULL CHECK (channel IN ('sms', 'push', 'contact')),
                    -- A person's id, or an emergency contact's.
                    recipient TEXT NOT NULL,
                    -- As the household called her when it was sent: a contact may be removed since.
                    recipientName TEXT NOT NULL,
                    -- The number a text went to.
                    number TEXT,
                    code TEXT,
                    state TEXT NOT NULL CHECK (state IN ('queued', 'sent', 'delivered', 'failed', 'answered')),
                    queuedAt INTEGER NOT NULL,
                    sentAt INTEGER,
                    attempts INTEGER NOT NULL DEFAULT 0,
                    nextAttemptAt INTEGER,
                    problem TEXT,
                    answeredAt INTEGER,
                    UNIQUE (alertId, channel, recipient)
                );
                CREATE INDEX away_messages_waiting ON away_messages (state, nextAttemptAt);
                -- A code answers one rung while it can still be answered.
                CREATE UNIQUE INDEX away_messages_code ON away_messages (code)
                    WHERE code IS NOT NULL AND state IN ('queued', 'sent', 'delivered');
                CREATE TABLE text_replies (
                    at INTEGER NOT NULL,
                    number TEXT NOT NULL,
                    outcome TEXT NOT NULL
                );
                CREATE INDEX text_replies_by_number ON text_replies (number, at);
                """)
        }
    }

    /// The household's escalation delays (v20): minutes a missed dose waits
    /// for an answer at home before it is sent away from home, and an SOS
    /// before the emergency contacts are texted.
    static func registerEscalationSettings(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v20 away from home: the household's delays") { db in
            try db.execute(sql: """
                ALTER TABLE household ADD COLUMN missedDoseAwayAfterMinutes INTEGER NOT NULL DEFAULT 15;
                ALTER TABLE household ADD COLUMN contactsAfterMinutes INTEGER NOT NULL DEFAULT 10;
                """)
        }
    }
}
