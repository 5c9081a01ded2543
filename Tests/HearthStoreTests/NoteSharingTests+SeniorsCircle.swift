import Foundation
import GRDB
import HearthCore
@testable import HearthStore
import HearthTestSupport
import Testing

/// A caregiver's note shared with a senior's circle (v17): it reaches the
/// senior and everyone who looks after her, the senior is one the owner
/// looks after, and the circle stays the senior's when the owner leaves it.
extension NoteSharingTests {
    /// Zosia looked after by Ania and Ela; Dziadek by Jan; Tomek (admin)
    /// looks after no one until a test links him.
    struct TwoCircles {
        let store: HearthStore
        let zosia: UUID, dziadek: UUID, ania: UUID, ela: UUID, jan: UUID, tomek: UUID

        func actor(_ id: UUID) async throws -> PermissionPolicy.Actor { try #require(try await store.actor(of: id)) }

        func readers(of note: Note) async throws -> Set<UUID> {
            var readers: Set<UUID> = []
            for id in [zosia, dziadek, ania, ela, jan, tomek] {
                let actor = try await actor(id)
                let listed = try await store.notes(visibleTo: actor).contains { $0.id == note.id }
                let found = try await store.searchNotes("okulista", visibleTo: actor).contains { $0.note.id == note.id }
                expectEqual(listed, found, "the list and search agree for \(id)")
                if listed { readers.insert(id) }
            }
            return readers
        }
    }

    static func twoCircles(_ directory: borrowing TemporaryDirectory) async throws -> TwoCircles {
        let home = try await NotesTests.household(directory)
        let store = home.store
        let dziadek = try await store.addPerson(name: "Dziadek Janek", role: .senior, as: .hubTerminal, by: "test")
        let ela = try await store.addPerson(name: "Ela", role: .caregiver, as: .hubTerminal, by: "test")
        let jan = try await store.addPerson(name: "Jan", role: .caregiver, as: .hubTerminal, by: "test")
        for (carer, senior) in [(home.caregiver.id, home.senior.id), (ela.id, home.senior.id), (jan.id, dziadek.id)] {
            try await store.link(caregiver: carer, senior: senior, as: .hubTerminal, by: "test")
        }
        return TwoCircles(store: store, zosia: home.senior.id, dziadek: dziadek.id, ania: home.caregiver.id, ela: ela.id,
                          jan: jan.id, tomek: home.admin.id)
    }

    @Test func aCaregiversCircleNoteReachesTheSeniorAndEveryoneWhoLooksAfterHerAndNoOneElse() async throws {
        let directory = try TemporaryDirectory()
        let home = try await Self.twoCircles(directory)
        defer { try? home.store.close() }
        let note = try await home.store.createNote(as: .noteMaker(home.ania), title: "Okulista", text: "okulista w piątek",
                                                   visibility: .circle, circleOf: home.zosia, pinned: false, by: "test")
        expectEqual(note.circleOf, home.zosia)
        #expect(try await home.readers(of: note) == [home.ania, home.zosia, home.ela],
                "Ela, who looks after Zosia too, reads it; Jan, Dziadek's caregiver, and Tomek do not")
        let jan = try await home.actor(home.jan)
        #expect(try await home.store.note(id: note.id).map { $0.access.letsRead(jan) } == false)
        // An admin linked to Zosia as her carer is in her circle as well.
        try await home.store.link(caregiver: home.tomek, senior: home.zosia, as: .hubTerminal, by: "test")
        try await expectEqual(home.readers(of: note), [home.ania, home.zosia, home.ela, home.tomek])
        // Ela may change it (it is not read-only) but not throw it away: that is its owner's.
        let ela = try await home.actor(home.ela)
        _ = try await home.store.updateNote(id: note.id, title: "Okulista Zosi", visibility: nil, pinned: nil, as: ela, by: "test")
        await #expect(throws: HearthError.forbidden("Your role in the household does not allow this")) {
            _ = try await home.store.trashNote(id: note.id, as: ela, by: "test")
        }
    }

    @Test func theSeniorMustBeOneTheOwnerLooksAfterElse422AndNothingChanges() async throws {
        let directory = try TemporaryDirectory()
        let home = try await Self.twoCircles(directory)
        defer { try? home.store.close() }
        let store = home.store
        let before = try await store.latestSeq()
        for (chosen, problem) in [(home.dziadek, "must be a senior you look after"), (UUID(), "must be a senior you look after")] {
            await #expect(throws: HearthError.invalid(fields: ["circleOf": problem])) {
                _ = try await store.createNote(as: .noteMaker(home.ania), title: "Okulista", text: "", visibility: .circle, circleOf: chosen,
                                               pinned: false, by: "test")
            }
        }
        await #expect(throws: HearthError.invalid(fields: ["circleOf": "is only for a note shared with a care circle"])) {
            _ = try await store.createNote(as: .noteMaker(home.ania), title: "Okulista", text: "", visibility: .shared, circleOf: home.zosia,
                                           pinned: false, by: "test")
        }
        // Tomek looks after no one: there is no circle of his to share with.
        await #expect(throws: HearthError.invalid(fields: ["circleOf": "must be a senior you look after, and you look after no one yet"])) {
            _ = try await store.createNote(as: .noteMaker(home.tomek), title: "Okulista", text: "", visibility: .circle, pinned: false, by: "test")
        }
        try await expectEqual(store.latestSeq(), before, "nothing was written")
        // Looking after two, she says which; left out, she is asked to.
        try await store.link(caregiver: home.ania, senior: home.dziadek, as: .hubTerminal, by: "test")
        await #expect(throws: HearthError.invalid(fields: ["circleOf": "must say which senior's circle: you look after more than one"])) {
            _ = try await store.createNote(as: .noteMaker(home.ania), title: "Okulista", text: "", visibility: .circle, pinned: false, by: "test")
        }
        let ania = try await home.actor(home.ania)
        let note = try await store.createNote(as: .noteMaker(home.ania), title: "Okulista", text: "okulista", visibility: .circle,
                                              circleOf: home.dziadek, pinned: false, by: "test")
        try await expectEqual(home.readers(of: note), [home.ania, home.dziadek, home.jan])
        // Moved to Zosia's circle by its owner; a senior she does not look after is refused and changes nothing.
        let moved = try await store.updateNote(id: note.id, title: nil, visibility: nil, circleOf: home.zosia, pinned: nil, as: ania, by: "test")
        expectEqual(moved.circleOf, home.zosia)
        try await expectEqual(home.readers(of: note), [home.ania, home.zosia, home.ela])
        let stranger = try await store.addPerson(name: "Prababcia", role: .senior, as: .hubTerminal, by: "test")
        await #expect(throws: HearthError.invalid(fields: ["circleOf": "must be a senior you look after"])) {
            _ = try await store.updateNote(id: note.id, title: "Zmienione", visibility: nil, circleOf: stranger.id, pinned: nil, as: ania, by: "test")
        }
        let stored = try #require(try await store.note(id: note.id))
        #expect(stored.circleOf == home.zosia && stored.title == "Okulista")
        // Only its owner says whose circle.
        let ela = try await home.actor(home.ela)
        await #expect(throws: HearthError.forbidden("Only the note's owner can change who sees it")) {
            _ = try await store.updateNote(id: note.id, title: nil, visibility: nil, circleOf: home.dziadek, pinned: nil, as: ela, by: "test")
        }
        // Shared with the household, it names no circle; back to a circle, she chooses again.
        let shared = try await store.updateNote(id: note.id, title: nil, visibility: .shared, pinned: nil, as: ania, by: "test")
        #expect(shared.circleOf == nil)
        await #expect(throws: HearthError.invalid(fields: ["circleOf": "must say which senior's circle: you look after more than one"])) {
            _ = try await store.updateNote(id: note.id, title: nil, visibility: .circle, pinned: nil, as: ania, by: "test")
        }
    }

    @Test func unlinkedTheOwnerKeepsHerNoteAndTheSeniorsCircleAsItIsNowKeepsReadingIt() async throws {
        let directory = try TemporaryDirectory()
        let home = try await Self.twoCircles(directory)
        defer { try? home.store.close() }
        let store = home.store
        let note = try await store.createNote(as: .noteMaker(home.ania), title: "Okulista", text: "okulista", visibility: .circle,
                                              pinned: false, by: "test")
        expectEqual(note.circleOf, home.zosia, "Ania looks after Zosia alone: hers is chosen for her")
        // Ania is unlinked: still her note, still Zosia's circle.
        try await store.removeCareLink(caregiver: home.ania, senior: home.zosia, as: .hubTerminal, by: "test")
        try await expectEqual(home.readers(of: note), [home.ania, home.zosia, home.ela])
        let ania = try await home.actor(home.ania)
        let renamed = try await store.updateNote(id: note.id, title: "Okulista w piątek", visibility: .circle, circleOf: home.zosia,
                                                 pinned: nil, as: ania, by: "test")
        expectEqual(renamed.circleOf, home.zosia, "the circle it is in is kept, though she could not choose it now")
        // The circle is who looks after Zosia now: Ela leaves it, Jan joins it.
        try await store.removeCareLink(caregiver: home.ela, senior: home.zosia, as: .hubTerminal, by: "test")
        try await store.link(caregiver: home.jan, senior: home.zosia, as: .hubTerminal, by: "test")
        try await expectEqual(home.readers(of: note), [home.ania, home.zosia, home.jan])
    }

    @Test func aCaregiversCircleNoteFromBeforeV17KeepsTheReadingItWasSharedUnder() async throws {
        let directory = try TemporaryDirectory()
        let home = try await Self.twoCircles(directory)
        defer { try? home.store.close() }
        let note = try await home.store.createNote(as: .noteMaker(home.ania), title: "Okulista", text: "okulista", visibility: .circle,
                                                   pinned: false, by: "test")
        // As the migration leaves it: "the people I look after", no senior named.
        try await home.store.writeOutsideChangeLog { db in
            try db.execute(sql: "UPDATE notes SET circleOf = NULL WHERE id = ?", arguments: [note.id.text])
        }
        try await expectEqual(home.readers(of: note), [home.ania, home.zosia], "the seniors she looks after, not Ela")
        // Saving it with nothing changed keeps it so; choosing Zosia's circle widens it.
        let ania = try await home.actor(home.ania)
        _ = try await home.store.updateNote(id: note.id, title: nil, visibility: .circle, pinned: true, as: ania, by: "test")
        #expect(try await home.store.note(id: note.id)?.circleOf == nil)
        _ = try await home.store.updateNote(id: note.id, title: nil, visibility: nil, circleOf: home.zosia, pinned: nil, as: ania, by: "test")
        try await expectEqual(home.readers(of: note), [home.ania, home.zosia, home.ela])
    }
}
