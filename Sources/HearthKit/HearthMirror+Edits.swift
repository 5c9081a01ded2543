import Foundation
import GRDB
import HearthCore
import HearthCRDT

/// Local writes: each changes the copy and queues the change for the hub in
/// one transaction, and works offline. The hub decides later, field by
/// field; a change that loses or is refused is replaced by the hub's value
/// on the next sync.
extension HearthMirror {
    /// Answers a planned dose by its key (`TodayDose.key`). Two devices
    /// answering the same dose offline leave one dose on the hub.
    public func record(doseKey key: String, status: TodayDose.Status, takenAt: Date? = nil, now: Date = Date()) async throws {
        guard status == .taken || status == .skipped else { throw HearthKitError.invalid("A dose is answered taken or skipped.") }
        try await writer.write { db in
            var fields: [String: JSONValue] = ["status": .string(status.rawValue)]
            if status == .taken { fields["takenAt"] = .string(ISOTime.text(takenAt ?? now)) }
            try Self.enqueue(.dose, id: key, fields: fields, now: now, db)
        }
    }

    public func updateMedication(id: UUID, _ changes: MedicationChanges, now: Date = Date()) async throws {
        let fields = changes.fields
        try Self.check(fields, of: .medication)
        guard !fields.isEmpty else { return }
        try await writer.write { db in
            let id = id.text
            guard try Self.fields(.medication, id, db) != nil else { throw HearthKitError.notFound("That medication") }
            try Self.enqueue(.medication, id: id, fields: fields, now: now, db)
        }
    }

    /// A new note under an id this device chooses, with its first text.
    /// `shared` is the household; `visibility`, when given, says who sees it
    /// instead (`.circle`: a care circle; for a caregiver, `circleOf` the
    /// senior whose circle, needed when she looks after more than one).
    @discardableResult
    public func createNote(title: String = "", text: String = "", shared: Bool = false, visibility: Note.Visibility? = nil,
                           readOnly: Bool = false, circleOf: UUID? = nil, now: Date = Date()) async throws -> UUID {
        let visibility = visibility ?? (shared ? .shared : .private)
        var given: [String: JSONValue] = ["title": .string(title), "visibility": .string(visibility.rawValue), "readOnly": .bool(readOnly)]
        if let circleOf { given["circleOf"] = .string(circleOf.text) }
        let fields = given
        try Self.check(fields, of: .note)
        let id = UUID.random()
        try await writer.write { db in
            let noteId = id.text
            var created = fields
            created["ownerId"] = try Self.meta(.personId, db).map(JSONValue.string) ?? .null
            created["pinned"] = .bool(false)
            created["updatedAt"] = .string(ISOTime.text(now))
            try Self.setFields(created, .note, noteId, db)
            let empty = NoteText(replica: try Self.replica(db))
            try db.execute(sql: "INSERT INTO note_texts (noteId, text, state) VALUES (?, '', ?)", arguments: [noteId, Data(empty.encodeState())])
            // The note first, then its text: the hub applies a push in order.
            try Self.enqueue(.note, id: noteId, fields: fields, now: now, db)
            try Self.splice(noteId, at: 0, deleting: 0, inserting: text, now: now, db)
        }
        return id
    }

    /// Changes a note's title, pin or sharing (`shared`: with the household
    /// or no one; `visibility` says it exactly; `circleOf`, whose circle;
    /// `readOnly`: whether those it is shared with may change it); nil
    /// leaves it as it is.
    public func updateNote(id: UUID, title: String? = nil, pinned: Bool? = nil, shared: Bool? = nil,
                           visibility: Note.Visibility? = nil, circleOf: UUID? = nil, readOnly: Bool? = nil,
                           now: Date = Date()) async throws {
        var fields: [String: JSONValue] = [:]
        if let title { fields["title"] = .string(title) }
        if let pinned { fields["pinned"] = .bool(pinned) }
        if let visibility = visibility ?? shared.map({ $0 ? .shared : .private }) { fields["visibility"] = .string(visibility.rawValue) }
        if let circleOf { fields["circleOf"] = .string(circleOf.text) }
        if let readOnly { fields["readOnly"] = .bool(readOnly) }
        try Self.check(fields, of: .note)
        guard !fields.isEmpty else { return }
        let changed = fields
        try await writer.write { db in
            let id = id.text
            guard try Self.fields(.note, id, db) != nil else { throw HearthKitError.notFound("That note") }
            try Self.enqueue(.note, id: id, fields: changed, now: now, db)
        }
    }

    /// Moves a note to Trash (`true`) or brings it back.
    public func setNoteInTrash(id: UUID, _ inTrash: Bool, now: Date = Date()) async throws {
        try await writer.write { db in
            let id = id.text
            guard try Self.fields(.note, id, db) != nil else { throw HearthKitError.notFound("That note") }
            try Self.enqueue(.note, id: id, fields: [:], deleted: inTrash, now: now, db)
        }
    }

    /// Types into a note: deletes `deleting` characters at `position` and
    /// inserts `inserting` there. Positions count Unicode scalars.
    public func editNoteText(id: UUID, at position: Int, deleting: Int = 0, inserting: String = "", now: Date = Date()) async throws {
        try await writer.write { db in try Self.splice(id.text, at: position, deleting: deleting, inserting: inserting, now: now, db) }
    }

    /// Makes a note's text `text`, as the smallest edit from what it is
    /// (the common beginning and end kept), so typing elsewhere merges.
    public func setNoteText(id: UUID, to text: String, now: Date = Date()) async throws {
        try await writer.write { db in
            let noteId = id.text
            guard let current = try String.fetchOne(db, sql: "SELECT text FROM note_texts WHERE noteId = ?", arguments: [noteId]) else {
                throw HearthKitError.notFound("That note")
            }
            let old = Array(current.unicodeScalars), new = Array(text.unicodeScalars)
            var prefix = 0
            while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
            var suffix = 0
            while suffix < old.count - prefix, suffix < new.count - prefix, old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
            var inserted = String.UnicodeScalarView()
            inserted.append(contentsOf: new[prefix..<(new.count - suffix)])
            try Self.splice(noteId, at: prefix, deleting: old.count - prefix - suffix, inserting: String(inserted), now: now, db)
        }
    }

    static func splice(_ noteId: String, at position: Int, deleting: Int, inserting: String, now: Date, _ db: Database) throws {
        guard deleting > 0 || !inserting.isEmpty else { return }
        guard let stored = try Data.fetchOne(db, sql: "SELECT state FROM note_texts WHERE noteId = ?", arguments: [noteId]),
              let fields = try fields(.note, noteId, db), fields["deletedAt"] == nil || fields["deletedAt"] == .null else {
            throw HearthKitError.notFound("That note")
        }
        let text = try NoteText.decodeState([UInt8](stored), replica: try replica(db))
        guard position >= 0, deleting >= 0, position + deleting <= text.count else {
            throw HearthKitError.invalid("The note has \(text.count) characters; \(position)+\(deleting) is past its end.")
        }
        var operations: [NoteOperation] = []
        do {
            if deleting > 0, let deletion = try text.delete(at: position, length: deleting) { operations.append(deletion) }
            if !inserting.isEmpty { operations.append(try text.insert(inserting, at: position)) }
        } catch {
            throw HearthKitError.invalid("\(error)")
        }
        guard text.text.utf8.count <= Note.maximumTextBytes else { throw HearthKitError.invalid("A note holds at most 1 MiB of text.") }
        try db.execute(sql: "UPDATE note_texts SET text = ?, state = ? WHERE noteId = ?", arguments: [text.text, Data(text.encodeState()), noteId])
        var note = fields
        note["updatedAt"] = .string(ISOTime.text(now))
        try setFields(note, .note, noteId, db)
        try enqueue(.noteText, id: noteId, fields: ["operations": .string(Data(NoteOperation.encode(operations)).base64EncodedString())], now: now, db)
    }

    /// Refuses what the hub would refuse, before it is queued.
    static func check(_ fields: [String: JSONValue], of entity: SyncChange.Entity) throws {
        let kinds = SyncChange.fieldKinds(of: entity)
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
            guard let kind = kinds[name] else { throw HearthKitError.invalid("\(name) is not a field sync can change.") }
            if let problem = SyncChange.problem(with: value, as: kind) { throw HearthKitError.invalid("\(name) \(problem).") }
        }
    }
}
