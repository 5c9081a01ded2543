import Foundation
import GRDB
import HearthCore
import HearthCRDT
@testable import HearthStore
import HearthTestSupport
import Testing

/// Typing is stored as operations each round, and the note's text only now
/// and then (`storeNoteOperations` with no text): a hub that stops between
/// the two finds the text rebuilt from its operations when it starts.
@Suite struct NoteTextCatchUpTests {
    static func type(_ word: String, into note: Note, replica: NoteText, text: Bool, _ store: HearthStore,
                     as editor: PermissionPolicy.Actor) async throws -> Int64 {
        let operation = try replica.insert(word, at: replica.count)
        return try await store.storeNoteOperations(
            noteId: note.id,
            operations: [StoredNoteOperation(replica: operation.id.replica, counter: operation.id.counter,
                                             length: operation.length, bytes: NoteOperation.encode([operation]))],
            text: text ? replica.text : nil, recordChange: text, refreshSearch: false, editors: [editor], by: "Ania").seq
    }

    static func row(_ store: HearthStore, _ id: UUID) async throws -> Row {
        try await store.pool.read { db in
            try #require(try Row.fetchOne(db, sql: "SELECT text, textUpdateSeq, updatedAt FROM notes WHERE id = ?", arguments: [id.text]))
        }
    }

    @Test func aRoundWithoutTheTextLeavesTheNoteRowAsItWas() async throws {
        let directory = try TemporaryDirectory()
        let home = try await NotesTests.household(directory)
        defer { try? home.store.close() }
        let editor = home.actor(home.caregiver)
        let note = try await home.store.createNote(as: .noteMaker(home.senior.id), title: "Zakupy", text: "mleko",
                                                   visibility: .shared, pinned: false, by: "test")
        let replica = try NoteText.decodeState(try #require(try await home.store.noteEditingStart(id: note.id)).state, replica: 91)
        let before = try await Self.row(home.store, note.id)
        let changesBefore = try await home.store.latestSeq()

        _ = try await Self.type(" chleb", into: note, replica: replica, text: false, home.store, as: editor)

        try await expectEqual(Self.row(home.store, note.id), before, "text, textUpdateSeq and updatedAt untouched")
        try await expectEqual(home.store.latestSeq(), changesBefore, "nobody is told of typing whose text is not stored")
        // Sync reads the state with the operations after it: it has the typing already.
        let synced = try await home.store.notesNow(ids: [note.id], for: editor, withText: true)
        guard case .readable(_, let text?) = synced[note.id] else { Issue.record("the note is readable"); return }
        expectEqual(text.text, "mleko chleb")
    }

    @Test func theTextLeftBehindIsRebuiltAndFoundWhenTheStoreOpensAgain() async throws {
        let directory = try TemporaryDirectory()
        let home = try await NotesTests.household(directory)
        let editor = home.actor(home.caregiver)
        let note = try await home.store.createNote(as: .noteMaker(home.senior.id), title: "Zakupy", text: "mleko",
                                                   visibility: .shared, pinned: false, by: "test")
        let replica = try NoteText.decodeState(try #require(try await home.store.noteEditingStart(id: note.id)).state, replica: 92)
        // Given one round stored with its text, then three without (the hub
        // stopped before the session wrote the text)…
        let first = try await Self.type(" chleb", into: note, replica: replica, text: true, home.store, as: editor)
        try await expectEqual(Self.row(home.store, note.id)["textUpdateSeq"], first)
        var last = first
        for word in [" masło", " pomidory", " żółty ser"] {
            last = try await Self.type(word, into: note, replica: replica, text: false, home.store, as: editor)
        }
        try await expectEqual(Self.row(home.store, note.id)["text"], "mleko chleb", "the stored text is behind")
        try await expectEqual(home.store.note(id: note.id)?.text, "mleko chleb masło pomidory żółty ser", "a reader has every stored word")
        try home.store.close()

        // …when it opens again, the text has every stored word, and search finds them.
        let restarted = try PairingTests.store(directory)
        defer { try? restarted.close() }
        let row = try await Self.row(restarted, note.id)
        expectEqual(row["text"], "mleko chleb masło pomidory żółty ser")
        expectEqual(row["textUpdateSeq"], last)
        try await expectEqual(restarted.searchNotes("pomidory", visibleTo: editor).map(\.note.id), [note.id])
        try await expectEqual(restarted.searchNotes("zółty ser", visibleTo: editor).map(\.note.id), [note.id])
    }

    @Test func anOlderTextNeverReplacesANewerOne() async throws {
        let directory = try TemporaryDirectory()
        let home = try await NotesTests.household(directory)
        defer { try? home.store.close() }
        let editor = home.actor(home.caregiver)
        let note = try await home.store.createNote(as: .noteMaker(home.senior.id), title: "Wizyta", text: "",
                                                   visibility: .shared, pinned: false, by: "test")
        let replica = try NoteText.decodeState(try #require(try await home.store.noteEditingStart(id: note.id)).state, replica: 93)
        let early = try await Self.type("kardiolog", into: note, replica: replica, text: false, home.store, as: editor)
        let late = try await Self.type(" wtorek", into: note, replica: replica, text: false, home.store, as: editor)
        let changes = try await home.store.latestSeq()

        try await home.store.storeNoteText(id: note.id, text: "kardiolog wtorek", throughSeq: late, by: "Ania")
        try await home.store.storeNoteText(id: note.id, text: "kardiolog", throughSeq: early, by: "Ania")

        try await expectEqual(home.store.note(id: note.id)?.text, "kardiolog wtorek")
        try await expectEqual(home.store.latestSeq(), changes + 1, "the text stored is told once; the older one not at all")
        try await expectEqual(home.store.searchNotes("wtorek", visibleTo: editor).map(\.note.id), [note.id])
    }
}
