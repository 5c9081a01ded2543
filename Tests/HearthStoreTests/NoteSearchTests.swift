import Foundation
import GRDB
import HearthCore
import HearthCRDT
@testable import HearthStore
import HearthTestSupport
import Testing

/// Search keeps its own copy of each note's words, refreshed from the text
/// now and then while people type (see the v8 migration): it may lag the
/// text for a few seconds, but never loses it, not even over a power cut.
@Suite struct NoteSearchTests {
    /// Types `word` at the end of the note as an editing session stores it.
    static func type(_ word: String, into note: Note, replica: NoteText, refreshSearch: Bool, _ store: HearthStore,
                     as reader: PermissionPolicy.Actor) async throws -> String {
        let operation = try replica.insert(word, at: replica.count)
        _ = try await store.storeNoteOperations(
            noteId: note.id,
            operations: [StoredNoteOperation(replica: operation.id.replica, counter: operation.id.counter,
                                             length: operation.length, bytes: NoteOperation.encode([operation]))],
            text: replica.text, recordChange: false, refreshSearch: refreshSearch, editors: [reader], by: "Ania")
        return replica.text
    }

    /// Found by the fuzzer: a NUL inside a quoted FTS5 phrase made the
    /// search fail with 500; control characters now separate words.
    @Test func controlCharactersInASearchSeparateWordsAndNeverFail() async throws {
        let directory = try TemporaryDirectory()
        let home = try await NotesTests.household(directory)
        defer { try? home.store.close() }
        let reader = home.actor(home.caregiver)
        let note = try await home.store.createNote(as: .noteMaker(home.senior.id), title: "Zakupy", text: "mleko chleb",
                                                   visibility: .shared, pinned: false, by: "test")
        #expect(try await home.store.searchNotes("S\r\u{F1}\u{0}¥/\u{7}", visibleTo: reader).isEmpty)
        #expect(try await home.store.searchNotes("mle\u{0}chl", visibleTo: reader).map(\.note.id) == [note.id])
        #expect(HearthStore.searchExpression("\u{0}\u{1}") == nil)
    }

    @Test func typingLeftOutOfSearchIsFoundAfterARestart() async throws {
        let directory = try TemporaryDirectory()
        let home = try await NotesTests.household(directory)
        let reader = home.actor(home.caregiver)
        let note = try await home.store.createNote(as: .noteMaker(home.senior.id), title: "Zakupy", text: "mleko",
                                                   visibility: .shared, pinned: false, by: "test")
        let start = try #require(try await home.store.noteEditingStart(id: note.id))
        let replica = try NoteText.decodeState(start.state, replica: 77)

        // Given typing stored without re-indexing (as between two refreshes)…
        let text = try await Self.type(" pomidory", into: note, replica: replica, refreshSearch: false, home.store, as: reader)
        try await expectEqual(home.store.note(id: note.id)?.text, text, "the text itself is always current")
        #expect(try await home.store.searchNotes("pomidory", visibleTo: reader).isEmpty)

        // …when the hub stops before the refresh and starts again…
        try home.store.close()
        let restarted = try PairingTests.store(directory)
        defer { try? restarted.close() }

        // …then search has caught up with the text.
        try await expectEqual(restarted.searchNotes("pomidory", visibleTo: reader).map(\.note.id), [note.id])
        try await expectEqual(restarted.searchNotes("mleko", visibleTo: reader).map(\.note.id), [note.id])
    }

    @Test func aRefreshFindsTheNewWordsAndForgetsTheRemovedOnes() async throws {
        let directory = try TemporaryDirectory()
        let home = try await NotesTests.household(directory)
        defer { try? home.store.close() }
        let reader = home.actor(home.caregiver)
        let note = try await home.store.createNote(as: .noteMaker(home.senior.id), title: "Wizyta", text: "kardiolog",
                                                   visibility: .shared, pinned: false, by: "test")
        let start = try #require(try await home.store.noteEditingStart(id: note.id))
        let replica = try NoteText.decodeState(start.state, replica: 78)
        _ = try replica.delete(at: 0, length: replica.count)
        _ = try await Self.type("okulista", into: note, replica: replica, refreshSearch: false, home.store, as: reader)
        try await expectEqual(home.store.searchNotes("kardiolog", visibleTo: reader).count, 1, "not refreshed yet")

        try await home.store.refreshNoteSearch(id: note.id, by: "Ania")

        try await expectEqual(home.store.searchNotes("okulista", visibleTo: reader).map(\.note.id), [note.id])
        #expect(try await home.store.searchNotes("kardiolog", visibleTo: reader).isEmpty)
        // A new title is searchable at once, and the text stays found with it.
        _ = try await home.store.updateNote(id: note.id, title: "Oczy", visibility: nil, pinned: nil, as: .init(personId: note.ownerId, role: .admin), by: "test")
        try await expectEqual(home.store.searchNotes("oczy okulista", visibleTo: reader).map(\.note.id), [note.id])
    }

    @Test func notesWrittenBeforeSearchKeptItsOwnCopyAreFound() async throws {
        let directory = try TemporaryDirectory()
        // Given a hub's database from before the v8 migration, with a note…
        do {
            let queue = try DatabaseQueue(path: directory.url.appendingPathComponent(HearthStore.fileName).path)
            try HearthStore.migrator.migrate(queue, upTo: "v7 alert lookups")
            try await queue.write { db in
                try db.execute(sql: "INSERT INTO people (id, name, role, createdAt) VALUES ('00000000-0000-4000-8000-0000000000aa', 'Zosia', 'senior', 0)")
                try db.execute(sql: """
                    INSERT INTO notes (id, ownerId, title, visibility, pinned, createdAt, updatedAt, text, state)
                    VALUES ('00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-0000000000aa', 'Apteka', 'shared', 0, 0, 0, 'witamina D', x'')
                    """)
            }
        }
        // …when this hub opens it…
        let store = try HearthStore(directory: directory.url)
        defer { try? store.close() }
        try await expectEqual(store.appliedMigrations(), HearthStore.migrationNames)
        let noteId = try #require(UUID(text: "00000000-0000-4000-8000-000000000001"))
        let reader = PermissionPolicy.Actor(personId: UUID.random(), role: .caregiver, caresFor: [])
        // …then what it held is still found, by title and by text.
        try await expectEqual(store.searchNotes("apteka witamina", visibleTo: reader).map(\.note.id), [noteId])
    }
}
