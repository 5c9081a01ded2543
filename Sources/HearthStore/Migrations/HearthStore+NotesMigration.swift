import GRDB

extension HearthStore {
    /// Notes: their metadata and text, the CRDT state they open from, the
    /// operations that arrived since that state, and full-text search.
    static func registerNotes(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v3 notes") { db in
            try db.execute(sql: """
                CREATE TABLE notes (
                    -- An integer key the search index can rely on: an implicit
                    -- rowid may change on VACUUM, which would detach the index.
                    searchRow INTEGER PRIMARY KEY,
                    id TEXT NOT NULL UNIQUE,
                    ownerId TEXT NOT NULL REFERENCES people(id),
                    title TEXT NOT NULL,
                    visibility TEXT NOT NULL CHECK (visibility IN ('private', 'shared')),
                    pinned INTEGER NOT NULL CHECK (pinned IN (0, 1)),
                    createdAt INTEGER NOT NULL,
                    updatedAt INTEGER NOT NULL,
                    deletedAt INTEGER,
                    -- The text as it reads now, kept current with every edit.
                    text TEXT NOT NULL,
                    -- The CRDT state (Docs/note-crdt.md format 2) as of
                    -- note_updates.seq = stateUpdateSeq; later updates apply on top.
                    state BLOB NOT NULL,
                    stateUpdateSeq INTEGER NOT NULL DEFAULT 0
                );
                CREATE INDEX notes_in_list_order ON notes (deletedAt, pinned, updatedAt);
                -- Operations as they arrived (format 1, one per row), so an editor
                -- catches up with what it lacks and nothing acknowledged is lost.
                CREATE TABLE note_updates (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    noteId TEXT NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
                    replica INTEGER NOT NULL,
                    counter INTEGER NOT NULL,
                    length INTEGER NOT NULL,
                    operation BLOB NOT NULL,
                    actor TEXT NOT NULL,
                    time INTEGER NOT NULL,
                    UNIQUE (noteId, replica, counter)
                );
                -- remove_diacritics 2: "zolc" finds "żółć", as people type on phones.
                CREATE VIRTUAL TABLE notes_search USING fts5(
                    title, text, content='notes', content_rowid='searchRow',
                    tokenize='unicode61 remove_diacritics 2'
                );
                CREATE TRIGGER notes_search_insert AFTER INSERT ON notes BEGIN
                    INSERT INTO notes_search (rowid, title, text) VALUES (new.searchRow, new.title, new.text);
                END;
                CREATE TRIGGER notes_search_delete AFTER DELETE ON notes BEGIN
                    INSERT INTO notes_search (notes_search, rowid, title, text) VALUES ('delete', old.searchRow, old.title, old.text);
                END;
                CREATE TRIGGER notes_search_update AFTER UPDATE OF title, text ON notes BEGIN
                    INSERT INTO notes_search (notes_search, rowid, title, text) VALUES ('delete', old.searchRow, old.title, old.text);
                    INSERT INTO notes_search (rowid, title, text) VALUES (new.searchRow, new.title, new.text);
                END;
                """)
        }
    }

    /// Search keeps its own copy of each note's words, refreshed from the
    /// note's text when an editing session tells of its typing (at most
    /// every few seconds), not with every keystroke: re-indexing a long
    /// note's whole text for each character made typing into it slow
    /// (9 ms a keystroke at 200 KB). `searchBehind` marks a note whose text
    /// is newer than its words in the index; opening the store catches them
    /// up, so a power cut leaves search behind by no more than a restart.
    /// (An index reading its words from `notes` could not be left behind:
    /// FTS5 must be told the very words it indexed to remove them.)
    static func registerSearchApartFromTyping(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v8 note search apart from typing") { db in
            try db.execute(sql: """
                DROP TRIGGER notes_search_insert;
                DROP TRIGGER notes_search_delete;
                DROP TRIGGER notes_search_update;
                DROP TABLE notes_search;
                CREATE VIRTUAL TABLE notes_search USING fts5(
                    title, text, tokenize='unicode61 remove_diacritics 2'
                );
                INSERT INTO notes_search (rowid, title, text) SELECT searchRow, title, text FROM notes;
                ALTER TABLE notes ADD COLUMN searchBehind INTEGER NOT NULL DEFAULT 0 CHECK (searchBehind IN (0, 1));
                CREATE TRIGGER notes_search_insert AFTER INSERT ON notes BEGIN
                    INSERT INTO notes_search (rowid, title, text) VALUES (new.searchRow, new.title, new.text);
                END;
                CREATE TRIGGER notes_search_delete AFTER DELETE ON notes BEGIN
                    DELETE FROM notes_search WHERE rowid = old.searchRow;
                END;
                CREATE TRIGGER notes_search_title AFTER UPDATE OF title ON notes BEGIN
                    UPDATE notes_search SET title = new.title WHERE rowid = new.searchRow;
                END;
                """)
        }
    }

    /// A note may be shared with its owner's care circle, and shared for
    /// reading only. SQLite cannot widen a CHECK constraint, so the table is
    /// made again with the same rows (and `searchRow`s, which the search
    /// index is keyed by) and its index and triggers; foreign keys are
    /// checked once at the end (GRDB's deferred checks), so dropping the old
    /// table does not take the notes' operations with it.
    static func registerNoteSharing(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v11 note sharing with the care circle, read-only") { db in
            try db.execute(sql: """
                CREATE TABLE notes_shared_anew (
                    searchRow INTEGER PRIMARY KEY,
                    id TEXT NOT NULL UNIQUE,
                    ownerId TEXT NOT NULL REFERENCES people(id),
                    title TEXT NOT NULL,
                    visibility TEXT NOT NULL CHECK (visibility IN ('private', 'circle', 'shared')),
                    readOnly INTEGER NOT NULL DEFAULT 0 CHECK (readOnly IN (0, 1)),
                    pinned INTEGER NOT NULL CHECK (pinned IN (0, 1)),
                    createdAt INTEGER NOT NULL,
                    updatedAt INTEGER NOT NULL,
                    deletedAt INTEGER,
                    text TEXT NOT NULL,
                    state BLOB NOT NULL,
                    stateUpdateSeq INTEGER NOT NULL DEFAULT 0,
                    searchBehind INTEGER NOT NULL DEFAULT 0 CHECK (searchBehind IN (0, 1))
                );
                INSERT INTO notes_shared_anew
                    (searchRow, id, ownerId, title, visibility, readOnly, pinned, createdAt, updatedAt, deletedAt, text, state, stateUpdateSeq, searchBehind)
                    SELECT searchRow, id, ownerId, title, visibility, 0, pinned, createdAt, updatedAt, deletedAt, text, state, stateUpdateSeq, searchBehind
                    FROM notes;
                DROP TABLE notes;
                ALTER TABLE notes_shared_anew RENAME TO notes;
                CREATE INDEX notes_in_list_order ON notes (deletedAt, pinned, updatedAt);
                CREATE TRIGGER notes_search_insert AFTER INSERT ON notes BEGIN
                    INSERT INTO notes_search (rowid, title, text) VALUES (new.searchRow, new.title, new.text);
                END;
                CREATE TRIGGER notes_search_delete AFTER DELETE ON notes BEGIN
                    DELETE FROM notes_search WHERE rowid = old.searchRow;
                END;
                CREATE TRIGGER notes_search_title AFTER UPDATE OF title ON notes BEGIN
                    UPDATE notes_search SET title = new.title WHERE rowid = new.searchRow;
                END;
                """)
        }
    }

    /// A caregiver's (or admin's) circle note names the senior whose circle
    /// it reaches: her and everyone who looks after her (`NoteCircle`).
    /// Null for every other note, a senior's own circle note included, and
    /// left null for the circle notes already written: they were shared
    /// with "the people I look after", and choosing a senior for them would
    /// show them to caregivers their owner never chose.
    static func registerNoteCircles(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v17 a caregiver's circle note names its senior") { db in
            try db.execute(sql: """
                ALTER TABLE notes ADD COLUMN circleOf TEXT REFERENCES people(id)
                    CHECK (circleOf IS NULL OR visibility = 'circle');
                """)
        }
    }

    /// A note's text is no longer rewritten with every round of typing,
    /// only every few seconds and when the note goes quiet
    /// (`storeNoteOperations`): `textUpdateSeq` is the last of its
    /// `note_updates` the text includes, so opening the store can rebuild a
    /// text the hub stopped before writing. Until now the text was written
    /// with every round, so it includes all of them.
    static func registerNoteTextApartFromTyping(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v21 note text written apart from typing") { db in
            try db.execute(sql: """
                ALTER TABLE notes ADD COLUMN textUpdateSeq INTEGER NOT NULL DEFAULT 0;
                UPDATE notes SET textUpdateSeq = (SELECT coalesce(max(seq), 0) FROM note_updates WHERE noteId = notes.id);
                """)
        }
    }

    /// Each note's CRDT state in a table of its own: in the note's row, a
    /// long note's state (about as long as its text) was written again with
    /// every write of its text, and its text with every compaction of the
    /// state (SQLite writes a changed row whole).
    static func registerNoteStatesApart(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v22 note states apart from notes") { db in
            try db.execute(sql: """
                CREATE TABLE note_states (
                    noteId TEXT PRIMARY KEY REFERENCES notes(id) ON DELETE CASCADE,
                    -- Docs/note-crdt.md format 2, with every operation through
                    -- note_updates.seq = stateUpdateSeq; later updates apply on top.
                    state BLOB NOT NULL,
                    stateUpdateSeq INTEGER NOT NULL DEFAULT 0
                );
                INSERT INTO note_states (noteId, state, stateUpdateSeq) SELECT id, state, stateUpdateSeq FROM notes;
                ALTER TABLE notes DROP COLUMN state;
                ALTER TABLE notes DROP COLUMN stateUpdateSeq;
                """)
        }
    }
}
