import Foundation
import GRDB
import HearthCore
@testable import HearthStore
import HearthTestSupport
import Testing

/// A note shared with its owner's care circle, and shared for reading only:
/// what the list, search, edits and the change log make of them.
@Suite struct NoteSharingTests {
    /// Zosia (senior) looked after by Ania (caregiver); Tomek (admin) and
    /// Obcy (caregiver) look after nobody here.
    struct Circle {
        let home: NotesTests.Household
        let zosia: PermissionPolicy.Actor, ania: PermissionPolicy.Actor, tomek: PermissionPolicy.Actor, obcy: PermissionPolicy.Actor
    }

    static func circle(_ directory: borrowing TemporaryDirectory) async throws -> Circle {
        let home = try await NotesTests.household(directory)
        let stranger = try await home.store.addPerson(name: "Obcy", role: .caregiver, as: .hubTerminal, by: "test")
        try await home.store.link(caregiver: home.caregiver.id, senior: home.senior.id, as: .hubTerminal, by: "test")
        func actor(_ id: UUID) async throws -> PermissionPolicy.Actor { try #require(try await home.store.actor(of: id)) }
        return Circle(home: home, zosia: try await actor(home.senior.id), ania: try await actor(home.caregiver.id),
                      tomek: try await actor(home.admin.id), obcy: try await actor(stranger.id))
    }

    @Test func aCircleNoteIsListedAndFoundByTheCircleOnly() async throws {
        let directory = try TemporaryDirectory()
        let circle = try await Self.circle(directory)
        defer { try? circle.home.store.close() }
        let store = circle.home.store
        #expect(circle.zosia.lookedAfterBy == [circle.ania.personId] && circle.ania.caresFor == [circle.zosia.personId])
        let hers = try await store.createNote(as: .noteMaker(circle.zosia.personId), title: "Lekarz", text: "kardiolog we wtorek",
                                              visibility: .circle, pinned: false, by: "test")
        let anias = try await store.createNote(as: .noteMaker(circle.ania.personId), title: "Dla Zosi", text: "kardiolog: zabrać wyniki",
                                               visibility: .circle, pinned: false, by: "test")
        for reader in [circle.zosia, circle.ania] {
            expectEqual(Set(try await store.notes(visibleTo: reader).map(\.id)), [hers.id, anias.id])
            expectEqual(Set(try await store.searchNotes("kardiolog", visibleTo: reader).map(\.note.id)), [hers.id, anias.id])
        }
        for outsider in [circle.tomek, circle.obcy] {
            #expect(try await store.notes(visibleTo: outsider).isEmpty, "an admin outside the circle does not see it either")
            #expect(try await store.searchNotes("kardiolog", visibleTo: outsider).isEmpty)
        }
        expectEqual(anias.circleOf, circle.zosia.personId, "the one senior Ania looks after is chosen for her")
        // Unlinking takes Ania out of Zosia's circle; her note stays hers, and
        // in Zosia's circle, which is Zosia's (NoteCircle).
        try await store.removeCareLink(caregiver: circle.ania.personId, senior: circle.zosia.personId, as: .hubTerminal, by: "test")
        let ania = try #require(try await store.actor(of: circle.ania.personId))
        let zosia = try #require(try await store.actor(of: circle.zosia.personId))
        try await expectEqual(store.notes(visibleTo: ania).map(\.id), [anias.id])
        expectEqual(Set(try await store.notes(visibleTo: zosia).map(\.id)), [hers.id, anias.id])
    }

    @Test func aReadOnlyNoteIsChangedByItsOwnerAloneAndOnlySheSaysWhoSeesIt() async throws {
        let directory = try TemporaryDirectory()
        let circle = try await Self.circle(directory)
        defer { try? circle.home.store.close() }
        let store = circle.home.store
        let note = try await store.createNote(as: .noteMaker(circle.zosia.personId), title: "Moje leki", text: "rano i wieczorem",
                                              visibility: .shared, readOnly: true, pinned: false, by: "test")
        #expect(note.readOnly)
        await #expect(throws: HearthError.forbidden("This note is shared for reading: only its owner changes it")) {
            _ = try await store.updateNote(id: note.id, title: "Zmienione", visibility: nil, pinned: nil, as: circle.ania, by: "test")
        }
        await #expect(throws: HearthError.forbidden("This note is shared for reading: only its owner changes it")) {
            _ = try await store.trashNote(id: note.id, as: circle.tomek, by: "test")
        }
        try await expectEqual(store.note(id: note.id)?.title, "Moje leki", "nothing was changed")
        // Made editable by its owner, the household may change its title but not its sharing.
        let editable = try await store.updateNote(id: note.id, title: nil, visibility: nil, readOnly: false, pinned: nil,
                                                  as: circle.zosia, by: "test")
        #expect(!editable.readOnly)
        _ = try await store.updateNote(id: note.id, title: "Leki Zosi", visibility: nil, pinned: nil, as: circle.obcy, by: "test")
        await #expect(throws: HearthError.forbidden("Only the note's owner can change whether others may change it")) {
            _ = try await store.updateNote(id: note.id, title: nil, visibility: nil, readOnly: true, pinned: nil, as: circle.ania, by: "test")
        }
        await #expect(throws: HearthError.forbidden("Only the note's owner can change who sees it")) {
            _ = try await store.updateNote(id: note.id, title: nil, visibility: .circle, pinned: nil, as: circle.ania, by: "test")
        }
        let stored = try #require(try await store.note(id: note.id))
        #expect(stored.title == "Leki Zosi" && stored.visibility == .shared && !stored.readOnly)
    }

    @Test func aChangeOfSharingIsLoggedWithWhatItWasAndWhetherItIsReadOnly() async throws {
        let directory = try TemporaryDirectory()
        let circle = try await Self.circle(directory)
        defer { try? circle.home.store.close() }
        let store = circle.home.store
        let before = try await store.latestSeq()
        let note = try await store.createNote(as: .noteMaker(circle.zosia.personId), title: "Plan", text: "", visibility: .shared,
                                              pinned: false, by: "test")
        _ = try await store.updateNote(id: note.id, title: nil, visibility: .circle, readOnly: true, pinned: nil, as: circle.zosia, by: "test")
        let changes = try await store.changes(after: before, limit: 10).filter { $0.entity == .note }
        expectEqual(changes.count, 2)
        #expect(changes[1].payload.field("visibility") == "circle" && changes[1].payload.field("readOnly") == .bool(true))
        expectEqual(changes[1].payload.field("wasVisibility"), "shared")
        // Those who saw it in the household hear of the change (and are sent only that it is gone).
        #expect(PermissionPolicy.mayHear(circle.obcy, changes[1].audience))
        #expect(PermissionPolicy.mayHear(circle.ania, changes[1].audience))
    }

    @Test func notesFromBeforeCirclesKeepTheirWordsOperationsAndSearch() async throws {
        let directory = try TemporaryDirectory()
        // Given a hub's database from before notes had a circle, with a note and its typing…
        do {
            let queue = try DatabaseQueue(path: directory.url.appendingPathComponent(HearthStore.fileName).path)
            try HearthStore.migrator.migrate(queue, upTo: "v10 alert apps, deliveries and the household's language")
            try await queue.write { db in
                try db.execute(sql: "INSERT INTO people (id, name, role, createdAt) VALUES ('00000000-0000-4000-8000-0000000000aa', 'Zosia', 'senior', 0)")
                try db.execute(sql: """
                    INSERT INTO notes (searchRow, id, ownerId, title, visibility, pinned, createdAt, updatedAt, text, state)
                    VALUES (7, '00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-0000000000aa', 'Apteka', 'shared', 1, 0, 0, 'witamina D', x'')
                    """)
                try db.execute(sql: """
                    INSERT INTO note_updates (noteId, replica, counter, length, operation, actor, time)
                    VALUES ('00000000-0000-4000-8000-000000000001', 5, 0, 1, x'00', 'Ania', 0)
                    """)
            }
        }
        // …when this hub opens it…
        let store = try HearthStore(directory: directory.url)
        defer { try? store.close() }
        try await expectEqual(store.appliedMigrations(), HearthStore.migrationNames)
        let noteId = try #require(UUID(text: "00000000-0000-4000-8000-000000000001"))
        // …the note is as it was, editable by the household, its typing kept and its words found.
        let note = try #require(try await store.note(id: noteId))
        #expect(note.visibility == .shared && !note.readOnly && note.pinned && note.text == "witamina D")
        let updates = try await store.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM note_updates") }
        expectEqual(updates, 1)
        let reader = PermissionPolicy.Actor(personId: UUID.random(), role: .caregiver)
        try await expectEqual(store.searchNotes("apteka witamina", visibleTo: reader).map(\.note.id), [noteId])
        // …and the new kinds of sharing can be stored.
        let circleNote = try await store.createNote(as: .noteMaker(note.ownerId), title: "Dla opiekunów", text: "", visibility: .circle,
                                                    readOnly: true, pinned: false, by: "test")
        try await expectEqual(store.note(id: circleNote.id)?.visibility, .circle)
    }
}
