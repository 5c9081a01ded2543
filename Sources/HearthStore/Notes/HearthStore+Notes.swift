import Foundation
import GRDB
import HearthCore
import HearthCRDT

/// A note found by a search, with the passage that matched.
public struct NoteSearchHit: Sendable, Hashable {
    public struct Piece: Sendable, Hashable {
        public var text: String
        public var matched: Bool
    }

    public var note: Note
    /// A short passage around the best match, matched words marked.
    public var snippet: [Piece]
}

extension HearthStore {
    // MARK: Writing

    /// A new note owned by whoever makes it (nobody makes a note in
    /// another's name), its text held by a fresh CRDT replica.
    /// `circleOf`: for a circle note of a caregiver's, whose circle
    /// (`NoteCircle`: chosen for her when she looks after one senior).
    public func createNote(
        as maker: PermissionPolicy.Actor, title: String, text: String, visibility: Note.Visibility, readOnly: Bool = false,
        circleOf: UUID? = nil, pinned: Bool, by origin: String
    ) async throws -> Note {
        let ownerId = maker.personId
        let title = try Note.validatedTitle(title)
        let text = try Note.validatedText(text)
        let replica = NoteText(replica: ReplicaRange.random())
        if !text.isEmpty { try replica.insert(text, at: 0) }
        let state = replica.encodeState()
        return try await write(by: origin) { transaction in
            guard let owner = try Self.person(id: ownerId, transaction.db), owner.archivedAt == nil else {
                throw HearthError.notFound(what: "That person")
            }
            let circle = try NoteCircle.senior(chosen: circleOf, visibility: visibility, owner: try Self.circleOwner(owner, transaction.db))
            let note = Note(id: UUID.random(), ownerId: ownerId, title: title, visibility: visibility, readOnly: readOnly, circleOf: circle,
                            pinned: pinned, createdAt: transaction.time, updatedAt: transaction.time, deletedAt: nil, text: text)
            try Self.insertNote(note, state: state, in: &transaction)
            return note
        }
    }

    /// Adds a note row with its CRDT state, and logs its creation.
    static func insertNote(_ note: Note, state: [UInt8], in transaction: inout WriteTransaction) throws {
        try transaction.db.cachedExecute(sql: """
                INSERT INTO notes (id, ownerId, title, visibility, readOnly, circleOf, pinned, createdAt, updatedAt, text)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [note.id.text, note.ownerId.text, note.title, note.visibility.rawValue, note.readOnly, note.circleOf?.text, note.pinned,
                        note.createdAt.millisecondsSince1970, note.updatedAt.millisecondsSince1970, note.text])
        try transaction.db.cachedExecute(sql: "INSERT INTO note_states (noteId, state) VALUES (?, ?)", arguments: [note.id.text, Data(state)])
        try transaction.record(entity: .note, entityId: note.id.text, op: .create, payload: payload(of: note))
    }

    /// Changes a note's title, visibility (and whose circle), read-only flag
    /// or pin; nil leaves a field as it is. Whoever may edit a note changes
    /// its title and pin; only its owner changes who sees it and whether
    /// they may change it. Decided on the note as this transaction reads it.
    public func updateNote(
        id: UUID, title: String?, visibility: Note.Visibility?, readOnly: Bool? = nil, circleOf: UUID? = nil, pinned: Bool?,
        as editor: PermissionPolicy.Actor, by origin: String
    ) async throws -> Note {
        let title = try title.map(Note.validatedTitle)
        return try await write(by: origin) { transaction in
            guard var note = try Self.note(id: id, transaction.db), note.deletedAt == nil else {
                throw HearthError.notFound(what: "That note")
            }
            try PermissionPolicy.require(editor, .edit, note.resource, what: "That note")
            if let visibility, visibility != note.visibility, note.ownerId != editor.personId {
                throw HearthError.forbidden("Only the note's owner can change who sees it")
            }
            if let readOnly, readOnly != note.readOnly, note.ownerId != editor.personId {
                throw HearthError.forbidden("Only the note's owner can change whether others may change it")
            }
            if let circleOf, circleOf != note.circleOf, note.ownerId != editor.personId {
                throw HearthError.forbidden("Only the note's owner can change who sees it")
            }
            let before = note
            if let title { note.title = title }
            if let visibility { note.visibility = visibility }
            if let readOnly { note.readOnly = readOnly }
            if let pinned { note.pinned = pinned }
            note.circleOf = try Self.circle(chosen: circleOf, for: note, before: before, transaction.db)
            guard note != before else { return note }
            note.updatedAt = transaction.time
            try transaction.db.cachedExecute(sql: "UPDATE notes SET title = ?, visibility = ?, readOnly = ?, circleOf = ?, pinned = ?, updatedAt = ? WHERE id = ?",
                arguments: [note.title, note.visibility.rawValue, note.readOnly, note.circleOf?.text, note.pinned,
                            note.updatedAt.millisecondsSince1970, id.text])
            try transaction.stampChanges(of: .note, id: id.text, from: Self.payload(of: before), to: Self.payload(of: note))
            try transaction.record(entity: .note, entityId: id.text, op: .update, payload: Self.payload(of: note, was: before))
            return note
        }
    }

    /// Moves a note to Trash, from which it can be restored for 30 days.
    public func trashNote(id: UUID, as editor: PermissionPolicy.Actor, by origin: String) async throws -> Note {
        try await setDeleted(id: id, deleted: true, as: editor, by: origin)
    }

    public func restoreNote(id: UUID, as editor: PermissionPolicy.Actor, by origin: String) async throws -> Note {
        try await setDeleted(id: id, deleted: false, as: editor, by: origin)
    }

    private func setDeleted(id: UUID, deleted: Bool, as editor: PermissionPolicy.Actor, by origin: String) async throws -> Note {
        try await write(by: origin) { transaction in
            guard var note = try Self.note(id: id, transaction.db), (note.deletedAt != nil) != deleted else {
                throw HearthError.notFound(what: deleted ? "That note" : "That note in Trash")
            }
            try PermissionPolicy.require(editor, .delete, note.resource, what: deleted ? "That note" : "That note in Trash")
            note.deletedAt = deleted ? transaction.time : nil
            note.updatedAt = transaction.time
            try transaction.db.cachedExecute(sql: "UPDATE notes SET deletedAt = ?, updatedAt = ? WHERE id = ?",
                arguments: [note.deletedAt?.millisecondsSince1970, note.updatedAt.millisecondsSince1970, id.text])
            try transaction.stamp(["deleted"], of: .note, id: id.text)
            try transaction.record(entity: .note, entityId: id.text, op: .update, payload: Self.payload(of: note))
            return note
        }
    }

    /// Deletes for good every note that has been in Trash for 30 days or
    /// more; returns their ids. Nothing while the hub's time jumped in the
    /// last day (`clockIsSettled`): a clock set a month ahead must not
    /// empty Trash.
    @discardableResult
    public func purgeTrash(by origin: String) async throws -> [UUID] {
        guard clockIsSettled else { return [] }
        let cutoff = currentTime().addingTimeInterval(-TimeInterval(Note.daysInTrash) * 86_400)
        return try await write(by: origin) { transaction in
            let ids = try String.fetchAll(transaction.db.cachedStatement(sql: "SELECT id FROM notes WHERE deletedAt <= ?"),
                                          arguments: [cutoff.millisecondsSince1970])
            for id in ids {
                let sharing = try Row.fetchOne(transaction.db.cachedStatement(sql: "SELECT ownerId, visibility, circleOf FROM notes WHERE id = ?"),
                                               arguments: [id])
                try transaction.db.cachedExecute(sql: "DELETE FROM notes WHERE id = ?", arguments: [id])
                // Enough for those who could read it to hear that it is gone.
                try transaction.record(entity: .note, entityId: id, op: .delete, payload: [
                    "ownerId": .string(sharing?["ownerId"] ?? ""),
                    "visibility": .string(sharing?["visibility"] ?? "private"),
                    "circleOf": (sharing?["circleOf"] as String?).map(JSONValue.string) ?? .null,
                ])
            }
            return ids.compactMap(UUID.init(text:))
        }
    }

    // MARK: Reading

    /// With every stored operation in its text, also typing whose text an
    /// editing session has not written yet (`storeNoteOperations`).
    public func note(id: UUID) async throws -> Note? {
        try await pool.read { db in
            guard var note = try Self.note(id: id, db) else { return nil }
            if try Self.textIsBehind(id, db), let synced = try Self.syncedText(of: id, db) { note.text = synced.text }
            return note
        }
    }

    /// Whether the note has stored operations its stored text lacks.
    static func textIsBehind(_ id: UUID, _ db: Database) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: """
            SELECT EXISTS (SELECT 1 FROM note_updates WHERE noteId = ?1 AND seq > (SELECT textUpdateSeq FROM notes WHERE id = ?1))
            """), arguments: [id.text]) ?? false
    }

    /// Notes `actor` may see, pinned first, then the most recently changed;
    /// those in Trash instead when `inTrash`.
    public func notes(visibleTo actor: PermissionPolicy.Actor, inTrash: Bool = false) async throws -> [Note] {
        try await pool.read { db in
            try Row.fetchAll(db.cachedStatement(sql: """
                SELECT \(Self.noteColumns()) FROM notes
                WHERE deletedAt IS \(inTrash ? "NOT NULL" : "NULL") AND (visibility <> 'private' OR ownerId = ?)
                ORDER BY pinned DESC, updatedAt DESC
                """), arguments: [actor.personId.text])
            .map(Self.note(from:))
            .filter { $0.access.letsRead(actor) }
        }
    }

    /// Full-text search over titles and texts of the notes `actor` may see,
    /// best match first. Every word must match, as a word or its beginning.
    public func searchNotes(_ query: String, visibleTo actor: PermissionPolicy.Actor, limit: Int = 50) async throws -> [NoteSearchHit] {
        guard let match = Self.searchExpression(query) else { return [] }
        return try await pool.read { db in
            // U+E000/U+E001 mark matches inside the snippet; they cannot occur
            // in the text's words (the tokenizer drops private-use characters).
            try Row.fetchAll(db.cachedStatement(sql: """
                SELECT \(Self.noteColumns()), snippet(notes_search, -1, char(57344), char(57345), '…', 12) AS passage
                FROM notes_search JOIN notes ON notes.searchRow = notes_search.rowid
                WHERE notes_search MATCH ? AND notes.deletedAt IS NULL
                  AND (notes.visibility <> 'private' OR notes.ownerId = ?)
                ORDER BY bm25(notes_search, 4.0, 1.0)
                LIMIT ?
                """), arguments: [match, actor.personId.text, limit])
            .map { row in NoteSearchHit(note: try Self.note(from: row), snippet: Self.pieces(of: row["passage"] ?? "")) }
            .filter { $0.note.access.letsRead(actor) }
        }
    }

    /// The FTS5 expression for what a person typed: each word quoted (so
    /// `AND`, `*` or a stray quote mean nothing special) and matched as a
    /// prefix, all words required. nil when there is no word. A control
    /// character (a NUL in the address) separates words: inside a quoted
    /// FTS5 phrase it ended the expression, and the search failed with 500.
    static func searchExpression(_ query: String) -> String? {
        let words = query.split(whereSeparator: { character in
            character.isWhitespace || character.isPunctuation && character != "'"
                || character.unicodeScalars.contains { $0.properties.generalCategory == .control }
        })
            .map { $0.replacingOccurrences(of: "\"", with: "") }
            .filter { !$0.isEmpty }
        guard !words.isEmpty else { return nil }
        return words.prefix(12).map { "\"\($0)\"*" }.joined(separator: " ")
    }

    static func pieces(of passage: String) -> [NoteSearchHit.Piece] {
        var pieces: [NoteSearchHit.Piece] = []
        var current = ""
        var matched = false
        for scalar in passage.unicodeScalars {
            if scalar == "\u{E000}" || scalar == "\u{E001}" {
                if !current.isEmpty { pieces.append(.init(text: current, matched: matched)) }
                current = ""
                matched = scalar == "\u{E000}"
            } else {
                current.unicodeScalars.append(scalar)
            }
        }
        if !current.isEmpty { pieces.append(.init(text: current, matched: matched)) }
        return pieces
    }

    /// The columns `note(from:)` reads: all but the CRDT state, which only
    /// editing reads and which spans many pages for a long note.
    static func noteColumns(of table: String = "notes") -> String {
        ["searchRow", "id", "ownerId", "title", "visibility", "readOnly", "circleOf", "pinned", "createdAt", "updatedAt", "deletedAt", "text"]
            .map { "\(table).\($0)" }.joined(separator: ", ")
    }

    static func note(id: UUID, _ db: Database) throws -> Note? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT \(noteColumns()) FROM notes WHERE id = ?"), arguments: [id.text]).map(note(from:))
    }

    static func note(from row: Row) throws -> Note {
        guard let id = UUID(text: row["id"]), let ownerId = UUID(text: row["ownerId"]),
              let visibility = Note.Visibility(rawValue: row["visibility"])
        else { throw HearthError.conflict("A stored note is damaged") }
        return Note(id: id, ownerId: ownerId, title: row["title"], visibility: visibility, readOnly: row["readOnly"],
                    circleOf: (row["circleOf"] as String?).flatMap(UUID.init(text:)), pinned: row["pinned"],
                    createdAt: Date(millisecondsSince1970: row["createdAt"]),
                    updatedAt: Date(millisecondsSince1970: row["updatedAt"]),
                    deletedAt: (row["deletedAt"] as Int64?).map(Date.init(millisecondsSince1970:)),
                    text: row["text"])
    }

    /// What a change to a note tells live listeners: enough to update a list,
    /// never the text. `wasVisibility` and `wasCircleOf` (when its sharing
    /// changed) let those who could see it before hear that it is gone.
    static func payload(of note: Note, was before: Note? = nil) -> JSONValue {
        var fields: [String: JSONValue] = [
            "ownerId": .string(note.ownerId.text),
            "title": .string(note.title),
            "displayTitle": .string(note.displayTitle),
            "visibility": .string(note.visibility.rawValue),
            "readOnly": .bool(note.readOnly),
            "circleOf": note.circleOf.map { .string($0.text) } ?? .null,
            "pinned": .bool(note.pinned),
            "updatedAt": .string(note.updatedAt.formatted(.iso8601)),
            "deletedAt": note.deletedAt.map { .string($0.formatted(.iso8601)) } ?? .null,
        ]
        if let before, before.visibility != note.visibility { fields["wasVisibility"] = .string(before.visibility.rawValue) }
        if let before, before.circleOf != note.circleOf { fields["wasCircleOf"] = before.circleOf.map { .string($0.text) } ?? .null }
        return .object(fields)
    }

    /// The owner of a note as `NoteCircle` asks after her: her role and
    /// the seniors she looks after, as this transaction reads them.
    static func circleOwner(_ owner: Person, _ db: Database) throws -> NoteCircle.Owner {
        NoteCircle.Owner(id: owner.id, role: owner.role, looksAfter: try seniors(caredForBy: owner.id, db))
    }

    /// `note`'s circle after a change of its sharing (`NoteCircle`), read
    /// in the change's own transaction; unchanged sharing reads nothing.
    static func circle(chosen: UUID?, for note: Note, before: Note, _ db: Database) throws -> UUID? {
        if chosen == nil || chosen == before.circleOf, note.visibility == before.visibility { return before.circleOf }
        guard let owner = try person(id: note.ownerId, db) else { throw HearthError.notFound(what: "That note") }
        return try NoteCircle.senior(chosen: chosen, visibility: note.visibility, owner: try circleOwner(owner, db), before: before)
    }
}
