import Foundation
import GRDB
import HearthCore
import HearthCRDT

/// What an editing session of a note starts from.
public struct NoteEditingStart: Sendable {
    public var note: Note
    /// The compacted CRDT state (Docs/note-crdt.md format 2).
    public var state: [UInt8]
    /// Operations stored after that state, oldest first (format 1 batches).
    public var updates: [[UInt8]]
    /// The `note_updates.seq` of the last of them (or of the state).
    public var lastUpdateSeq: Int64
}

/// Operations to store as one row, already checked against the note's
/// text: one replica's operations with consecutive counters (an editing
/// session stores a typist's round of keystrokes as one).
public struct StoredNoteOperation: Sendable {
    public var replica: UInt64
    public var counter: UInt64
    public var length: UInt64
    /// The operations, as a format 1 batch; `counter` is the first's, and
    /// `length` the counters they take together.
    public var bytes: [UInt8]

    public init(replica: UInt64, counter: UInt64, length: UInt64, bytes: [UInt8]) {
        self.replica = replica
        self.counter = counter
        self.length = length
        self.bytes = bytes
    }
}

extension HearthStore {
    /// The note's state and every operation stored since it.
    public func noteEditingStart(id: UUID) async throws -> NoteEditingStart? {
        try await pool.read { db in
            guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT \(Self.noteColumns()), state, stateUpdateSeq FROM notes JOIN note_states ON noteId = id WHERE id = ?"), arguments: [id.text]) else { return nil }
            let note = try Self.note(from: row)
            let stateSeq: Int64 = row["stateUpdateSeq"]
            let updates = try Row.fetchAll(db.cachedStatement(sql: "SELECT seq, operation FROM note_updates WHERE noteId = ? AND seq > ? ORDER BY seq"),
                                           arguments: [id.text, stateSeq])
            return NoteEditingStart(note: note, state: [UInt8](row["state"] as Data),
                                    updates: updates.map { [UInt8]($0["operation"] as Data) },
                                    lastUpdateSeq: updates.last?["seq"] ?? stateSeq)
        }
    }

    /// Every stored operation of the note a replica with `versionVector`
    /// lacks, oldest first.
    public func noteOperations(id: UUID, missingFrom versionVector: VersionVector) async throws -> [[UInt8]] {
        try await pool.read { db in
            try Row.fetchAll(db.cachedStatement(sql: "SELECT replica, counter, length, operation FROM note_updates WHERE noteId = ? ORDER BY seq"),
                             arguments: [id.text])
                .filter { row in
                    let replica = UInt64(row["replica"] as Int64), end = UInt64(row["counter"] as Int64) + UInt64(row["length"] as Int64)
                    return end > versionVector[replica]
                }
                .map { [UInt8]($0["operation"] as Data) }
        }
    }

    /// Stores operations an editor sent in one transaction; only then may
    /// they be acknowledged. Refuses, storing nothing, when the note is gone
    /// or in Trash, or one of `editors` may no longer edit it.
    ///
    /// `text`, when given, is the note's text with these operations, stored
    /// with them (`textUpdateSeq`); when nil only the operations are
    /// appended and the note's row is not touched: rewriting a long note's
    /// whole text for every round of typing wore an SD card out (a 100 KB
    /// note cost 395 KB a keystroke). The operations are the durable
    /// record; opening the store rebuilds a text left behind
    /// (`catchUpNoteTexts`), and sync reads the state with later operations.
    /// `recordChange` also tells live listeners the note changed;
    /// `refreshSearch` re-indexes the text for search, which otherwise waits
    /// (see `refreshNoteSearch`). Returns the last `note_updates.seq`, and
    /// who may have the note open as of this write.
    public func storeNoteOperations(
        noteId: UUID, operations: [StoredNoteOperation], text: String?, recordChange: Bool, refreshSearch: Bool,
        editors: [PermissionPolicy.Actor], by origin: String
    ) async throws -> (seq: Int64, access: NoteAccess) {
        try await write(by: origin) { transaction in
            guard var note = try Self.note(id: noteId, transaction.db), note.deletedAt == nil else {
                throw HearthError.notFound(what: "That note")
            }
            for editor in editors where !note.access.letsEdit(editor) {
                throw HearthError.notFound(what: "That note")
            }
            let time = transaction.time.millisecondsSince1970
            for operation in operations {
                try transaction.db.cachedExecute(sql: """
                        INSERT INTO note_updates (noteId, replica, counter, length, operation, actor, time)
                        VALUES (?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [noteId.text, Int64(operation.replica), Int64(operation.counter), Int64(operation.length),
                                Data(operation.bytes), origin, time])
            }
            let seq = transaction.db.lastInsertedRowID
            guard let text else {
                // Told without its text: the note's row stays as it is.
                if recordChange {
                    try transaction.record(entity: .note, entityId: noteId.text, op: .update, payload: Self.payload(of: note))
                }
                return (seq, note.access)
            }
            note.text = text
            note.updatedAt = transaction.time
            try transaction.db.cachedExecute(sql: """
                    UPDATE notes SET text = ?, updatedAt = ?, textUpdateSeq = ?, searchBehind = ? WHERE id = ?
                    """, arguments: [text, time, seq, !refreshSearch, noteId.text])
            if refreshSearch { try Self.refreshSearch(ofNote: noteId, text: text, transaction.db) }
            if recordChange {
                try transaction.record(entity: .note, entityId: noteId.text, op: .update, payload: Self.payload(of: note))
            }
            return (seq, note.access)
        }
    }

    /// Re-indexes the note's text for search if typing left it behind.
    /// Not a change anyone is told of: the text itself was stored (and
    /// told) with the typing.
    public func refreshNoteSearch(id: UUID, by origin: String) async throws {
        // The one write path (so it commits with the typing around it, in order),
        // though it records no change.
        try await write(by: origin) { transaction in
            let db = transaction.db
            guard let text = try String.fetchOne(db.cachedStatement(sql: "SELECT text FROM notes WHERE id = ? AND searchBehind = 1"),
                                                 arguments: [id.text]) else { return }
            try Self.refreshSearch(ofNote: id, text: text, db)
            try db.cachedExecute(sql: "UPDATE notes SET searchBehind = 0 WHERE id = ?", arguments: [id.text])
        }
    }

    /// Rebuilds the text of every note whose stored typing is newer than
    /// its text (the hub stopped before its editing session wrote the
    /// text), from its state and the operations after it, and marks its
    /// search words behind. Run when the store opens, before
    /// `refreshBehindSearch`.
    static func catchUpNoteTexts(_ db: Database) throws {
        let behind = try Row.fetchAll(db, sql: """
            SELECT id, state, stateUpdateSeq, (SELECT max(seq) FROM note_updates WHERE noteId = notes.id) AS lastSeq
            FROM notes JOIN note_states ON note_states.noteId = notes.id
            WHERE EXISTS (SELECT 1 FROM note_updates WHERE noteId = notes.id AND seq > notes.textUpdateSeq)
            """)
        for row in behind {
            let id: String = row["id"]
            let text = try NoteText.decodeState([UInt8](row["state"] as Data), replica: ReplicaRange.random())
            let later = try Row.fetchAll(db, sql: "SELECT seq, operation, time FROM note_updates WHERE noteId = ? AND seq > ? ORDER BY seq",
                                         arguments: [id, row["stateUpdateSeq"] as Int64])
            for update in later {
                for operation in try NoteOperation.decode([UInt8](update["operation"] as Data)) {
                    _ = try text.apply(operation, waitForMissing: false)
                }
            }
            // (No later operations: the state, compacted after the text was written, has them all.)
            let lastTime: Int64? = later.last?["time"]
            try db.execute(sql: """
                UPDATE notes SET text = ?, updatedAt = max(updatedAt, coalesce(?, updatedAt)), textUpdateSeq = ?, searchBehind = 1 WHERE id = ?
                """, arguments: [text.text, lastTime, row["lastSeq"] as Int64, id])
        }
    }

    /// Catches up every note whose search words are older than its text
    /// (the hub stopped between typing and re-indexing).
    static func refreshBehindSearch(_ db: Database) throws {
        let behind = try Row.fetchAll(db, sql: "SELECT id, text FROM notes WHERE searchBehind = 1")
        for row in behind {
            guard let id = UUID(text: row["id"]) else { continue }
            try refreshSearch(ofNote: id, text: row["text"], db)
        }
        try db.execute(sql: "UPDATE notes SET searchBehind = 0 WHERE searchBehind = 1")
    }

    static func refreshSearch(ofNote id: UUID, text: String, _ db: Database) throws {
        try db.cachedExecute(sql: "UPDATE notes_search SET text = ? WHERE rowid = (SELECT searchRow FROM notes WHERE id = ?)",
                             arguments: [text, id.text])
    }

    /// Replaces the note's compacted state by one that includes every
    /// operation up to `throughSeq`, so the next opening reads one row.
    /// Never goes backwards (a slower compaction loses to a newer one). Not a
    /// change anyone could see — the text is the same — so it bypasses the
    /// change log.
    public func compactNote(id: UUID, state: [UInt8], throughSeq: Int64) async throws {
        try await writeOutsideChangeLog { db in
            try db.cachedExecute(sql: "UPDATE note_states SET state = ?, stateUpdateSeq = ? WHERE noteId = ? AND stateUpdateSeq < ?",
                           arguments: [Data(state), throughSeq, id.text, throughSeq])
        }
    }
}
