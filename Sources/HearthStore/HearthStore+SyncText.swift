import Foundation
import GRDB
import HearthCore
import HearthCRDT

/// A note's text as sync sends it: the plain text, and the CRDT state a
/// device merges its own offline typing into.
public struct SyncedNoteText: Sendable {
    public var text: String
    /// Docs/note-crdt.md format 2: every character with its id, and the version vector.
    public var state: [UInt8]
}

extension HearthStore {
    /// The current text and CRDT state of each note named that still exists.
    /// A note whose stored state is behind its operations is brought up to
    /// date in memory (the stored state is left for the editing session's
    /// compaction to replace).
    public func syncedNoteTexts(ids: [UUID]) async throws -> [UUID: SyncedNoteText] {
        guard !ids.isEmpty else { return [:] }
        return try await pool.read { db in
            var texts: [UUID: SyncedNoteText] = [:]
            for id in ids {
                guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT text, state, stateUpdateSeq FROM notes WHERE id = ?"),
                                                 arguments: [id.text]) else { continue }
                let state = [UInt8](row["state"] as Data)
                let later = try Data.fetchAll(db.cachedStatement(sql: "SELECT operation FROM note_updates WHERE noteId = ? AND seq > ? ORDER BY seq"),
                                              arguments: [id.text, row["stateUpdateSeq"] as Int64])
                guard !later.isEmpty else {
                    texts[id] = SyncedNoteText(text: row["text"], state: state)
                    continue
                }
                let text = try NoteText.decodeState(state, replica: ReplicaRange.random())
                for batch in later {
                    for operation in try NoteOperation.decode([UInt8](batch)) { _ = try text.apply(operation, waitForMissing: false) }
                }
                texts[id] = SyncedNoteText(text: text.text, state: text.encodeState())
            }
            return texts
        }
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

    /// Tells the change log a note's text changed, for typing an editing
    /// session stored without telling (it tells at most every few seconds),
    /// so that a device syncing later hears of the last of it; search
    /// catches up with the text at the same time.
    public func recordNoteTextChanged(id: UUID, by actorName: String) async throws {
        try await write(by: actorName) { transaction in
            guard let note = try Self.note(id: id, transaction.db) else { return }
            try transaction.record(entity: "note", entityId: id.text, op: .update, payload: Self.payload(of: note))
            try Self.refreshSearch(ofNote: id, text: note.text, transaction.db)
            try transaction.db.cachedExecute(sql: "UPDATE notes SET searchBehind = 0 WHERE id = ?", arguments: [id.text])
        }
    }
}
