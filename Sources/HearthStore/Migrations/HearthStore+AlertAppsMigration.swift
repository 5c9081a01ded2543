import GRDB

extension HearthStore {
    /// The language the hub speaks to the household (alerts on phones, its
    /// voice), the credentials alert apps on phones sign in with, and where
    /// each alert went.
    static func registerAlertApps(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v10 alert apps, deliveries and the household's language") { db in
            try db.execute(sql: """
                ALTER TABLE household ADD COLUMN language TEXT NOT NULL DEFAULT 'en';
                CREATE TABLE alert_apps (
                    id TEXT PRIMARY KEY,
                    personId TEXT NOT NULL REFERENCES people(id),
                    name TEXT NOT NULL,
                    username TEXT NOT NULL UNIQUE,
                    passwordHash BLOB NOT NULL,
                    -- Signs the per-alert links of its messages' buttons, so
                    -- a button acts on one alert only and dies with the credential.
                    actionKey BLOB NOT NULL,
                    createdAt INTEGER NOT NULL,
                    lastSeenAt INTEGER,
                    revokedAt INTEGER
                );
                CREATE INDEX alert_apps_by_person ON alert_apps(personId);
                -- Where each alert went (HearthStore+Deliveries), kept 90 days.
                CREATE TABLE alert_deliveries (
                    alertId TEXT NOT NULL,
                    channel TEXT NOT NULL,
                    recipient TEXT NOT NULL,
                    at INTEGER NOT NULL
                );
                CREATE INDEX alert_deliveries_by_alert ON alert_deliveries(alertId);
                CREATE INDEX alert_deliveries_by_time ON alert_deliveries(at);
                """)
        }
    }
}
