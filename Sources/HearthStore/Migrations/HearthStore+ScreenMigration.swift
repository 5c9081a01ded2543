import GRDB

extension HearthStore {
    /// A person's screen kept on the hub (v16): the tiles of her panel, her
    /// display settings, and her best score in each game.
    static func registerScreen(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v16 panels, display settings and game scores") { db in
            try db.execute(sql: """
                -- No rows: the panel has not been arranged, and the standard one is shown.
                -- The gadget's name is checked by Panel.validated, not here, so a
                -- new gadget needs no rebuild of the table.
                CREATE TABLE panel_tiles (
                    personId TEXT NOT NULL REFERENCES people(id),
                    position INTEGER NOT NULL CHECK (position BETWEEN 1 AND 6),
                    gadget TEXT NOT NULL,
                    PRIMARY KEY (personId, position),
                    UNIQUE (personId, gadget)
                ) WITHOUT ROWID;
                CREATE TABLE display_settings (
                    personId TEXT PRIMARY KEY REFERENCES people(id),
                    textSize TEXT NOT NULL CHECK (textSize IN ('normal', 'large', 'x-large')),
                    theme TEXT NOT NULL CHECK (theme IN ('system', 'light', 'dark')),
                    language TEXT NOT NULL,
                    speechRate TEXT NOT NULL CHECK (speechRate IN ('slower', 'slow', 'normal', 'fast'))
                ) WITHOUT ROWID;
                CREATE TABLE game_scores (
                    personId TEXT NOT NULL REFERENCES people(id),
                    game TEXT NOT NULL,
                    best INTEGER NOT NULL CHECK (best >= 1),
                    lastScore INTEGER NOT NULL CHECK (lastScore >= 1),
                    lastPlayedAt INTEGER NOT NULL,
                    gamesPlayed INTEGER NOT NULL CHECK (gamesPlayed >= 1),
                    PRIMARY KEY (personId, game)
                ) WITHOUT ROWID;
                """)
        }
    }
}
