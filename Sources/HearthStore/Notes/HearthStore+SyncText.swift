import Foundation
import GRDB
import HearthCore
import HearthCRDT

/// A note's text as sync sends it: the plain text, and the CRDT state a
/// device merges its own offline typing into.
public struct SyncedNoteText: Sendable, Equatable {
    public var text: String
    /// Docs/note-crdt.md format 2: every character with its id, and the version vector.
    public var state: [UInt8]
}

/// A note as one reader may be told of it now (`HearthStore.notesNow`).
public enum NoteForReader: Sendable, Equatable {
    /// They may read it: its fields as lists show them, and its text when asked for.
    case readable(fields: JSONValue, text: SyncedNoteText?)
    /// It exists, but this reader may not read it now.
    case hidden
    /// There is no such note (purged from Trash, or never was).
    case gone
}

extension HearthStore {
    /// Each note named, as `actor` may be told of it now: its fields and
    /// (with `withText`) its text and CRDT state when they may read it,
    /// `hidden` when it exists but they may not, `gone` when it does not.
    /// Decided and read in one snapshot, so what is sent is what the
    /// decision was about (NoteAccess).
    public func notesNow(ids: some Sequence<UUID>, for actor: PermissionPolicy.Actor, withText: Bool) async throws -> [UUID: NoteForReader] {
        let ids = Array(Set(ids))
        guard !ids.isEmpty else { return [:] }
        return try await pool.read { db in
            var notes: [UUID: NoteForReader] = [:]
            for id in ids {
                guard let note = try Self.note(id: id, db) else {
                    notes[id] = .gone
                    continue
                }
                guard note.access.letsRead(actor) else {
                    notes[id] = .hidden
                    continue
                }
                notes[id] = .readable(fields: Self.payload(of: note), text: withText ? try Self.syncedText(of: id, db) : nil)
            }
            return notes
        }
    }

    /// Who may read and edit the note now; nil when there is no such note.
    public func noteAccess(id: UUID) async throws -> NoteAccess? {
        try await pool.read { db in
            try Row.fetchOne(db.cachedStatement(sql: "SELECT ownerId, visibility, readOnly, circleOf, deletedAt FROM notes WHERE id = ?"),
                             arguments: [id.text])
                .flatMap { row in
                    guard let owner = UUID(text: row["ownerId"]), let visibility = Note.Visibility(rawValue: row["visibility"]) else { return nil }
                    return NoteAccess(owner: owner, visibility: visibility, readOnly: row["readOnly"],
                                      circleOf: (row["circleOf"] as String?).flatMap(UUID.init(text:)),
                                      inTrash: (row["deletedAt"] as Int64?) != nil)
                }
        }
    }

    /// The note's current text and CRDT state. A note whose stored state or
    /// text is behind its operations is brought up to date in memory (the
    /// stored ones are left for the editing session to replace).
    static func syncedText(of id: UUID, _ db: Database) throws -> SyncedNoteText? {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT text, state, stateUpdateSeq FROM notes JOIN note_states ON noteId = id WHERE id = ?"),
                                         arguments: [id.text]) else { return nil }
        let state = [UInt8](row["state"] as Data)
        let later = try Data.fetchAll(db.cachedStatement(sql: "SELECT operation FROM note_updates WHERE noteId = ? AND seq > ? ORDER BY seq"),
                                      arguments: [id.text, row["stateUpdateSeq"] as Int64])
        // The state may be newer than the text (compacted between two writes of the text).
        let behind = try textIsBehind(id, db)
        guard !later.isEmpty || behind else { return SyncedNoteText(text: row["text"], state: state) }
        let text = try NoteText.decodeState(state, replica: ReplicaRange.random())
        for batch in later {
            for operation in try NoteOperation.decode([UInt8](batch)) { _ = try text.apply(operation, waitForMissing: false) }
        }
        return SyncedNoteText(text: text.text, state: text.encodeState())
    }

    /// Why a device may not type into the note a `noteText` change names,
    /// as a rejected result carrying the note as it stands; nil when it may.
    /// Checked before the batch reaches the note's editing session, whose
    /// refusal would end everyone's editing.
    public func syncNoteTextRefusal(_ change: SyncChange, as actor: PermissionPolicy.Actor) async throws -> JSONValue? {
        try await pool.read { db in
            guard let id = UUID(text: change.id), let note = try Self.note(id: id, db),
                  PermissionPolicy.decide(actor, .view, note.resource) == .allow else {
                return try Self.refused(change, "not-found", actor: actor, db)
            }
            if PermissionPolicy.decide(actor, .edit, note.resource) != .allow {
                return try Self.refused(change, "forbidden", actor: actor, db)
            }
            // Typing into a note in Trash is refused, as in the editor.
            if note.deletedAt != nil { return try Self.refused(change, "in-trash", actor: actor, db) }
            return nil
        }
    }

    /// Stores the note's text as of `throughSeq` (its editing session
    /// writes it every few seconds of typing, and when the note goes quiet
    /// or the hub stops, not with every round), tells the change log, so
    /// that a device syncing later hears of it, and brings search up to it.
    /// A text older than the one stored is not written.
    public func storeNoteText(id: UUID, text: String, throughSeq: Int64, by origin: String) async throws {
        try await write(by: origin) { transaction in
            let db = transaction.db
            try db.cachedExecute(sql: """
                UPDATE notes SET text = ?, updatedAt = ?, textUpdateSeq = ?, searchBehind = 0 WHERE id = ? AND textUpdateSeq < ?
                """, arguments: [text, transaction.time.millisecondsSince1970, throughSeq, id.text, throughSeq])
            guard db.changesCount > 0, let note = try Self.note(id: id, db) else { return }
            try transaction.record(entity: .note, entityId: id.text, op: .update, payload: Self.payload(of: note))
            try Self.refreshSearch(ofNote: id, text: text, db)
        }
    }
}
