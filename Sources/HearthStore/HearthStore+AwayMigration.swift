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
}
