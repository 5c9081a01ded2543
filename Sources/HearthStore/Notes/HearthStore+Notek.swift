import Foundation
import GRDB
import HearthCore
import HearthCRDT

/// The position identifier a Notek client knows a note's character by.
public struct StoredNotekPosition: Sendable, Hashable {
    public var replica: UInt64
    public var counter: UInt64
    /// Notek's encoding: u8 depth, then (u32 ident, u8 site) per element.
    public var position: [UInt8]

    public init(replica: UInt64, counter: UInt64, position: [UInt8]) {
        self.replica = replica
        self.counter = counter
        self.position = position
    }
}

/// What the Notek bridge reads and writes. Notek clients have no accounts:
/// they see only shared notes, and the notes they create are shared ones
/// owned by the household's first admin.
extension HearthStore {
    /// The title of the note legacy Notek clients (which name no document) edit.
    public static let legacyNotekNoteTitle = "Notek shared note"

    /// Shared notes not in Trash changed after `time`, oldest change first.
    /// A note shared for reading only is not Notek's: its clients cannot be
    /// told that they may not type.
    public func sharedNotes(changedAfter time: Date) async throws -> [Note] {
        try await pool.read { db in
            try Row.fetchAll(db.cachedStatement(sql: """
                SELECT \(Self.noteColumns()) FROM notes WHERE visibility = 'shared' AND readOnly = 0 AND deletedAt IS NULL AND updatedAt > ?
                ORDER BY updatedAt, id
                """), arguments: [time.millisecondsSince1970]).map(Self.note(from:))
        }
    }

    /// The shared note legacy clients edit, created when first needed.
    public func legacyNotekNote(as bridge: PermissionPolicy.Actor, by origin: String) async throws -> Note {
        let find = "SELECT \(Self.noteColumns()) FROM notes WHERE title = ? AND visibility = 'shared' AND readOnly = 0 AND deletedAt IS NULL ORDER BY createdAt, id LIMIT 1"
        if let note = try await pool.read({ db in
            try Row.fetchOne(db.cachedStatement(sql: find), arguments: [Self.legacyNotekNoteTitle]).map(Self.note(from:))
        }) {
            return note
        }
        return try await write(by: origin) { transaction in
            // Looked for again inside the write: two clients greeting at once get one note.
            if let row = try Row.fetchOne(transaction.db.cachedStatement(sql: find), arguments: [Self.legacyNotekNoteTitle]) {
                return try Self.note(from: row)
            }
            return try Self.insertNotekNote(id: UUID.random(), title: Self.legacyNotekNoteTitle, as: bridge, in: &transaction)
        }
    }

    /// The shared note with this id, created (shared, owned by the first
    /// admin) when there is none. nil when the id belongs to a private note
    /// or to one in Trash or shared for reading only: those are not Notek's
    /// to see or to revive.
    public func notekNote(id: UUID, creatingWithTitle title: String, as bridge: PermissionPolicy.Actor, by origin: String) async throws -> Note? {
        let title = try Note.validatedTitle(title)
        return try await write(by: origin) { transaction in
            if let note = try Self.note(id: id, transaction.db) {
                return note.isNotekNote ? note : nil
            }
            return try Self.insertNotekNote(id: id, title: title, as: bridge, in: &transaction)
        }
    }

    /// A shared note for a Notek client, in the household's first admin's
    /// name (the protocol has no sign-in); the policy asks whether `bridge`
    /// may make a shared note (`Actor.notekBridge` may, and nothing else).
    private static func insertNotekNote(
        id: UUID, title: String, as bridge: PermissionPolicy.Actor, in transaction: inout WriteTransaction
    ) throws -> Note {
        guard let owner = try String.fetchOne(transaction.db.cachedStatement(sql: """
                SELECT id FROM people WHERE archivedAt IS NULL ORDER BY role = 'admin' DESC, createdAt, id LIMIT 1
                """)).flatMap(UUID.init(text:))
        else { throw HearthError.conflict("Nobody is in the household yet: pair a device first") }
        try PermissionPolicy.require(bridge, .create, .note(owner: owner, visibility: .shared), what: "A note")
        let state = NoteText(replica: ReplicaRange.random()).encodeState()
        let note = Note(id: id, ownerId: owner, title: title, visibility: .shared, pinned: false,
                        createdAt: transaction.time, updatedAt: transaction.time, deletedAt: nil, text: "")
        try insertNote(note, state: state, in: &transaction)
        return note
    }

    /// Every stored position of the note's characters.
    public func notekPositions(noteId: UUID) async throws -> [StoredNotekPosition] {
        try await pool.read { db in
            try Row.fetchAll(db.cachedStatement(sql: "SELECT replica, counter, position FROM notek_positions WHERE noteId = ?"),
                             arguments: [noteId.text])
                .map { StoredNotekPosition(replica: UInt64(bitPattern: $0[0] as Int64), counter: UInt64(bitPattern: $0[1] as Int64),
                                           position: [UInt8]($0[2] as Data)) }
        }
    }

    /// Keeps positions given to characters, before any Notek client hears
    /// of them. Not a change anyone lists, so it bypasses the change log.
    public func storeNotekPositions(noteId: UUID, _ positions: [StoredNotekPosition]) async throws {
        guard !positions.isEmpty else { return }
        try await writeOutsideChangeLog { db in
            for position in positions {
                try db.cachedExecute(sql: """
                    INSERT OR REPLACE INTO notek_positions (noteId, replica, counter, position) VALUES (?, ?, ?, ?)
                    """, arguments: [noteId.text, Int64(bitPattern: position.replica), Int64(bitPattern: position.counter),
                                     Data(position.position)])
            }
        }
    }
}
