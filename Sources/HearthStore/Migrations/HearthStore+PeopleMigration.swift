import GRDB

extension HearthStore {
    /// People, their care links, paired devices and pairing codes.
    static func registerPeopleAndDevices(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v2 people, devices and pairing") { db in
            try db.execute(sql: """
                CREATE TABLE people (
                    id TEXT PRIMARY KEY,
                    name TEXT NOT NULL,
                    role TEXT NOT NULL CHECK (role IN ('senior', 'caregiver', 'admin')),
                    createdAt INTEGER NOT NULL,
                    archivedAt INTEGER
                );
                CREATE TABLE care_links (
                    caregiverId TEXT NOT NULL REFERENCES people(id),
                    seniorId TEXT NOT NULL REFERENCES people(id),
                    createdAt INTEGER NOT NULL,
                    PRIMARY KEY (caregiverId, seniorId)
                );
                CREATE TABLE devices (
                    id TEXT PRIMARY KEY,
                    personId TEXT NOT NULL REFERENCES people(id),
                    name TEXT NOT NULL,
                    tokenHash BLOB NOT NULL UNIQUE,
                    createdAt INTEGER NOT NULL,
                    lastSeenAt INTEGER,
                    userAgent TEXT,
                    revokedAt INTEGER
                );
                CREATE INDEX devices_by_person ON devices(personId);
                CREATE TABLE pairing_codes (
                    id TEXT PRIMARY KEY,
                    secretHash BLOB NOT NULL UNIQUE,
                    shortCodeHash BLOB NOT NULL,
                    -- Either an existing person, or a person to create on use.
                    personId TEXT REFERENCES people(id),
                    newPersonName TEXT,
                    newPersonRole TEXT CHECK (newPersonRole IN ('senior', 'caregiver', 'admin')),
                    deviceName TEXT,
                    createdBy TEXT NOT NULL,
                    createdAt INTEGER NOT NULL,
                    expiresAt INTEGER NOT NULL,
                    wrongAttempts INTEGER NOT NULL DEFAULT 0,
                    burnedAt INTEGER,
                    usedAt INTEGER,
                    deviceId TEXT REFERENCES devices(id),
                    CHECK ((personId IS NULL) != (newPersonName IS NULL))
                );
                CREATE INDEX pairing_codes_by_short_code ON pairing_codes(shortCodeHash);
                """)
        }
    }
}
