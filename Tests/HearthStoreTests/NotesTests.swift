import Foundation
import GRDB
import HearthCore
import HearthCRDT
@testable import HearthStore
import HearthTestSupport
import Testing

@Suite struct NotesTests {
    struct Household {
        let store: HearthStore
        let clock: PairingTests.TestClock
        let senior: Person
        let caregiver: Person
        let admin: Person

        func actor(_ person: Person) -> PermissionPolicy.Actor {
            PermissionPolicy.Actor(personId: person.id, role: person.role,
                                   caresFor: person.role == .senior ? [] : [senior.id])
        }
    }

    static func household(_ directory: borrowing TemporaryDirectory) async throws -> Household {
        let clock = PairingTests.TestClock()
        let store = try PairingTests.store(directory, clock: clock)
        try await store.ensureHousehold(name: "Dom", timeZone: "Europe/Warsaw")
        let senior = try await store.addPerson(name: "Babcia Zosia", role: .senior, as: .hubTerminal, by: "test")
        let caregiver = try await store.addPerson(name: "Ania", role: .caregiver, as: .hubTerminal, by: "test")
        let admin = try await store.addPerson(name: "Tomek", role: .admin, as: .hubTerminal, by: "test")
        return Household(store: store, clock: clock, senior: senior, caregiver: caregiver, admin: admin)
    }

    @Test func aNoteKeepsItsTextAndItsCRDTStateTogether() async throws {
        let directory = try TemporaryDirectory()
        let home = try await Self.household(directory)
        defer { try? home.store.close() }
        let note = try await home.store.createNote(as: .noteMaker(home.senior.id), title: "", text: "Zakupy\nmleko 🥛\nchleb",
                                                   visibility: .shared, pinned: false, by: "test")
        expectEqual(note.displayTitle, "Zakupy", "an untitled note shows its first line")
        let stored = try #require(try await home.store.note(id: note.id))
        expectEqual(stored.text, "Zakupy\nmleko 🥛\nchleb")
        let state = try await home.store.read { db in
            try [UInt8](Data.fetchOne(db, sql: "SELECT state FROM note_states WHERE noteId = ?", arguments: [note.id.uuidString.lowercased()])!)
        }
        try expectEqual(NoteText.decodeState(state, replica: 9).text, stored.text, "opening the note needs this one state")
    }

    @Test func theListShowsPinnedFirstThenRecentlyChangedAndOnlyWhatTheReaderMaySee() async throws {
        let directory = try TemporaryDirectory()
        let home = try await Self.household(directory)
        defer { try? home.store.close() }
        let store = home.store
        let shopping = try await store.createNote(as: .noteMaker(home.caregiver.id), title: "Shopping", text: "", visibility: .shared, pinned: false, by: "t")
        home.clock.advance(60)
        let diary = try await store.createNote(as: .noteMaker(home.senior.id), title: "Diary", text: "dear diary", visibility: .private, pinned: false, by: "t")
        home.clock.advance(60)
        let doctor = try await store.createNote(as: .noteMaker(home.admin.id), title: "Doctor", text: "", visibility: .shared, pinned: false, by: "t")
        home.clock.advance(60)
        _ = try await store.updateNote(id: shopping.id, title: nil, visibility: nil, pinned: true, as: .init(personId: shopping.ownerId, role: .admin), by: "t")

        let forSenior = try await store.notes(visibleTo: home.actor(home.senior)).map(\.title)
        expectEqual(forSenior, ["Shopping", "Doctor", "Diary"])
        // A private note is its owner's alone: not even an admin or a caregiver sees it.
        try await expectEqual(store.notes(visibleTo: home.actor(home.caregiver)).map(\.title), ["Shopping", "Doctor"])
        try await expectEqual(store.notes(visibleTo: home.actor(home.admin)).map(\.title), ["Shopping", "Doctor"])
        #expect(try await store.searchNotes("diary", visibleTo: home.actor(home.admin)).isEmpty)
        _ = diary
        _ = doctor
    }

    @Test func searchFindsWordsAndTheirBeginningsWithOrWithoutPolishLetters() async throws {
        let directory = try TemporaryDirectory()
        let home = try await Self.household(directory)
        defer { try? home.store.close() }
        let store = home.store
        let reader = home.actor(home.senior)
        _ = try await store.createNote(as: .noteMaker(home.senior.id), title: "Lekarz", text: "Wizyta u kardiologa we wtorek o 10:00. Zabrać wyniki.",
                                       visibility: .shared, pinned: false, by: "t")
        _ = try await store.createNote(as: .noteMaker(home.senior.id), title: "Pączki", text: "na ostatki, z różą",
                                       visibility: .shared, pinned: false, by: "t")
        let hits = try await store.searchNotes("kardio wtor", visibleTo: reader)
        expectEqual(hits.map(\.note.title), ["Lekarz"])
        let marked = hits[0].snippet.filter(\.matched).map(\.text)
        expectEqual(marked, ["kardiologa", "wtorek"])
        try await expectEqual(store.searchNotes("paczki roza", visibleTo: reader).map(\.note.title), ["Pączki"])
        // What people type is never taken as search syntax.
        for odd in ["\"", "AND", "OR NOT", "*", "lek*\" OR \"x", "(", "  "] {
            _ = try await store.searchNotes(odd, visibleTo: reader)
        }
        #expect(try await store.searchNotes("  ", visibleTo: reader).isEmpty)
    }

    @Test func trashKeepsANoteFor30DaysThenPurgesIt() async throws {
        let directory = try TemporaryDirectory()
        let home = try await Self.household(directory)
        defer { try? home.store.close() }
        let store = home.store
        let reader = home.actor(home.senior)
        let note = try await store.createNote(as: .noteMaker(home.senior.id), title: "Old list", text: "x", visibility: .shared, pinned: false, by: "t")
        let trashed = try await store.trashNote(id: note.id, as: .init(personId: note.ownerId, role: .admin), by: "t")
        expectEqual(trashed.purgeAt, trashed.deletedAt?.addingTimeInterval(30 * 86_400))
        #expect(try await store.notes(visibleTo: reader).isEmpty)
        try await expectEqual(store.notes(visibleTo: reader, inTrash: true).map(\.id), [note.id])
        #expect(try await store.searchNotes("old", visibleTo: reader).isEmpty, "Trash is not searched")

        _ = try await store.restoreNote(id: note.id, as: .init(personId: note.ownerId, role: .admin), by: "t")
        try await expectEqual(store.notes(visibleTo: reader).map(\.id), [note.id])
        await #expect(throws: HearthError.notFound(what: "That note in Trash")) { try await store.restoreNote(id: note.id, as: .init(personId: note.ownerId, role: .admin), by: "t") }

        _ = try await store.trashNote(id: note.id, as: .init(personId: note.ownerId, role: .admin), by: "t")
        home.clock.advance(29 * 86_400)
        #expect(try await store.purgeTrash(by: "hub").isEmpty)
        home.clock.advance(86_400)
        try await expectEqual(store.purgeTrash(by: "hub"), [note.id])
        #expect(try await store.note(id: note.id) == nil)
        #expect(try await store.searchNotes("old", visibleTo: reader).isEmpty)
    }

    @Test func everyChangeToANoteIsInTheLogWithoutItsText() async throws {
        let directory = try TemporaryDirectory()
        let home = try await Self.household(directory)
        defer { try? home.store.close() }
        let store = home.store
        let before = try await store.latestSeq()
        let note = try await store.createNote(as: .noteMaker(home.senior.id), title: "", text: "secret recipe\nflour",
                                              visibility: .shared, pinned: false, by: "t")
        _ = try await store.updateNote(id: note.id, title: "Recipe", visibility: .private, pinned: true, as: .init(personId: note.ownerId, role: .admin), by: "t")
        _ = try await store.updateNote(id: note.id, title: "Recipe", visibility: nil, pinned: nil, as: .init(personId: note.ownerId, role: .admin), by: "t")  // no change
        _ = try await store.trashNote(id: note.id, as: .init(personId: note.ownerId, role: .admin), by: "t")
        let changes = try await store.changes(after: before, limit: 10).filter { $0.entity == .note }
        expectEqual(changes.map(\.op), [.create, .update, .update])
        expectEqual(changes[1].payload.field("wasVisibility"), "shared")
        #expect(changes[2].payload.field("wasVisibility") == nil, "moving to Trash does not change who sees it")
        for change in changes { #expect(!((try? change.payload.jsonText()) ?? "").contains("flour")) }
    }

    @Test func badTitlesAndOversizedTextAreRefusedAndNothingIsStored() async throws {
        let directory = try TemporaryDirectory()
        let home = try await Self.household(directory)
        defer { try? home.store.close() }
        let store = home.store
        await #expect(throws: HearthError.self) {
            try await store.createNote(as: .noteMaker(home.senior.id), title: String(repeating: "x", count: 201), text: "",
                                       visibility: .shared, pinned: false, by: "t")
        }
        await #expect(throws: HearthError.invalid(fields: ["text": "must be at most 1 MiB"])) {
            try await store.createNote(as: .noteMaker(home.senior.id), title: "", text: String(repeating: "ż", count: 600_000),
                                       visibility: .shared, pinned: false, by: "t")
        }
        await #expect(throws: HearthError.notFound(what: "That person")) {
            try await store.createNote(as: .noteMaker(UUID()), title: "", text: "", visibility: .shared, pinned: false, by: "t")
        }
        #expect(try await store.notes(visibleTo: home.actor(home.senior)).isEmpty)
    }
}

extension JSONValue {
    func field(_ name: String) -> JSONValue? {
        if case .object(let object) = self { return object[name] }
        return nil
    }
}
