import Foundation
import HearthCore
@testable import HearthStore
import HearthTestSupport
import Testing

/// A write decides who may make it inside its own transaction, on the row
/// as it reads it there: what the person may not see is unknown, what they
/// see but may not change is forbidden, and a refused write changes nothing.
@Suite struct WritePermissionTests {
    @Test func aNoteIsChangedOnlyAsItsOwnerAndItsSharingAllow() async throws {
        let directory = try TemporaryDirectory()
        let home = try await NotesTests.household(directory)
        defer { try? home.store.close() }
        let store = home.store
        let diary = try await store.createNote(as: .noteMaker(home.senior.id), title: "Pamiętnik", text: "", visibility: .private,
                                               pinned: false, by: "t")
        let shopping = try await store.createNote(as: .noteMaker(home.senior.id), title: "Zakupy", text: "", visibility: .shared,
                                                  pinned: false, by: "t")
        let ania = home.actor(home.caregiver)
        // Someone else's private note does not exist for Ania, even for an admin
        await #expect(throws: HearthError.notFound(what: "That note")) {
            try await store.updateNote(id: diary.id, title: "x", visibility: nil, pinned: nil, as: ania, by: "t")
        }
        await #expect(throws: HearthError.notFound(what: "That note")) {
            try await store.trashNote(id: diary.id, as: home.actor(home.admin), by: "t")
        }
        // A shared one she may rename, not make private: that is its owner's to say
        let renamed = try await store.updateNote(id: shopping.id, title: "Zakupy na sobotę", visibility: nil, pinned: nil, as: ania, by: "t")
        expectEqual(renamed.title, "Zakupy na sobotę")
        await #expect(throws: HearthError.forbidden("Only the note's owner can change who sees it")) {
            try await store.updateNote(id: shopping.id, title: "Moje", visibility: .private, pinned: nil, as: ania, by: "t")
        }
        // Moving another person's shared note to Trash is for admins and that person's caregivers
        let neighbour = PermissionPolicy.Actor(personId: home.admin.id, role: .caregiver, caresFor: [])
        await #expect(throws: HearthError.self) { try await store.trashNote(id: shopping.id, as: neighbour, by: "t") }
        #expect(try await store.note(id: shopping.id)?.deletedAt == nil)
        // …and nothing refused changed anything
        let stored = try #require(try await store.note(id: shopping.id))
        #expect(stored.title == "Zakupy na sobotę" && stored.visibility == .shared)
        try await expectEqual(store.note(id: diary.id)?.title, "Pamiętnik")
        _ = try await store.trashNote(id: shopping.id, as: ania, by: "t")
        _ = try await store.restoreNote(id: shopping.id, as: home.actor(home.senior), by: "t")
    }

    @Test func aMedicationIsChangedOnlyByThoseWhoCareForItsSenior() async throws {
        let directory = try TemporaryDirectory()
        let home = try await NotesTests.household(directory)
        defer { try? home.store.close() }
        let store = home.store
        let medication = try await store.addMedication(
            Medication(personId: home.senior.id, name: "Metformina", stock: 10, packageSize: 30,
                       createdAt: home.clock.now, updatedAt: home.clock.now), as: home.actor(home.caregiver), by: "t")
        let schedule = try await store.addSchedule(
            DoseSchedule(medicationId: medication.id, pattern: .everyNDays(interval: 1, times: [try LocalTime("08:00")]), amount: 1,
                         startDate: LocalDate(home.clock.now, in: TimeZone(identifier: "Europe/Warsaw")!)),
            as: home.actor(home.caregiver), by: "t")
        let stranger = PermissionPolicy.Actor(personId: UUID(), role: .caregiver, caresFor: [])
        let senior = home.actor(home.senior)
        // A caregiver of someone else does not see it
        await #expect(throws: HearthError.notFound(what: "That medication")) {
            try await store.updateMedication(id: medication.id, as: stranger, .edit, by: "t") { $0.name = "x" }
        }
        await #expect(throws: HearthError.notFound(what: "That medication")) {
            try await store.refill(medicationId: medication.id, packages: 1, as: stranger, by: "t")
        }
        // nor adds to her list; she herself sees it but adds nothing unless she manages her own
        let draft = Medication(personId: home.senior.id, name: "Aspiryna", createdAt: home.clock.now, updatedAt: home.clock.now)
        await #expect(throws: HearthError.notFound(what: "That person")) {
            try await store.addMedication(draft, as: stranger, by: "t")
        }
        await #expect(throws: HearthError.forbidden("Your role in the household does not allow this")) {
            try await store.addMedication(draft, as: senior, by: "t")
        }
        // and only an admin adds someone to the household
        await #expect(throws: HearthError.forbidden("Your role in the household does not allow this")) {
            try await store.addPerson(name: "Obcy", role: .caregiver, as: home.actor(home.caregiver), by: "t")
        }
        _ = try await store.addPerson(name: "Kasia", role: .caregiver, as: home.actor(home.admin), by: "t")
        try await expectEqual(store.medications(of: [home.senior.id], includingInactive: true).map(\.name), ["Metformina"])
        // The senior sees her list but changing it is for her caregivers
        for attempt in [
            { try await store.updateMedication(id: medication.id, as: senior, .delete, by: "t") { $0.active = false } },
            { try await store.refill(medicationId: medication.id, packages: 1, as: senior, by: "t") },
        ] as [@Sendable () async throws -> Medication] {
            await #expect(throws: HearthError.forbidden("Your role in the household does not allow this")) { try await attempt() }
        }
        await #expect(throws: HearthError.forbidden("Your role in the household does not allow this")) {
            try await store.removeSchedule(id: schedule.id, ofMedication: medication.id, as: senior, by: "t")
        }
        // A schedule is found only under its own medication
        let other = try await store.addMedication(
            Medication(personId: home.senior.id, name: "Witamina D", createdAt: home.clock.now, updatedAt: home.clock.now),
            as: home.actor(home.caregiver), by: "t")
        await #expect(throws: HearthError.notFound(what: "That schedule")) {
            try await store.removeSchedule(id: schedule.id, ofMedication: other.id, as: home.actor(home.caregiver), by: "t")
        }
        // Nothing refused changed anything; her caregiver's refill counts
        let unchanged = try #require(try await store.medication(id: medication.id))
        #expect(unchanged.name == "Metformina" && unchanged.active && unchanged.stock == 10)
        try await expectEqual(store.schedules(medicationId: medication.id).map(\.id), [schedule.id])
        let refilled = try await store.refill(medicationId: medication.id, packages: 1, as: home.actor(home.caregiver), by: "t")
        expectEqual(refilled.stock, 40)
    }

    @Test func anAlertIsAnsweredOnlyByThoseWhoCareForItsPerson() async throws {
        let directory = try TemporaryDirectory()
        let home = try await NotesTests.household(directory)
        defer { try? home.store.close() }
        let store = home.store
        let sos = try await store.raiseSOS(for: home.senior.id, as: PermissionPolicy.Actor(personId: home.senior.id, role: .senior), by: "t")
        let stranger = PermissionPolicy.Actor(personId: UUID(), role: .caregiver, caresFor: [])
        await #expect(throws: HearthError.notFound(what: "That alert")) {
            try await store.acknowledgeAlert(id: sos.id, as: stranger, by: "t")
        }
        await #expect(throws: HearthError.notFound(what: "That alert")) { try await store.alert(id: sos.id, visibleTo: stranger) }
        // "I'm on my way" is a caregiver's answer, not the senior's own
        await #expect(throws: HearthError.forbidden("Only a caregiver answers an alert with \"I'm on my way\"")) {
            try await store.respondToAlert(id: sos.id, as: home.actor(home.senior), by: "t")
        }
        #expect(try await store.alert(id: sos.id)?.respondedAt == nil)
        let answered = try await store.respondToAlert(id: sos.id, as: home.actor(home.caregiver), by: "t")
        expectEqual(answered.respondedBy, home.caregiver.id)
    }
}
