import Foundation
import GRDB
import HearthCore
@testable import HearthStore
import HearthTestSupport
import Testing

/// Renaming, phone numbers, roles, archiving and bringing back, and the
/// household's audit of it all.
@Suite struct PersonEditsTests {
    struct Home {
        let store: HearthStore
        let zosia: Person, ania: Person, tomek: Person
        let tomekActs: PermissionPolicy.Actor, aniaActs: PermissionPolicy.Actor
    }

    static func home(_ directory: borrowing TemporaryDirectory) async throws -> Home {
        let household = try await NotesTests.household(directory)
        let store = household.store
        try await store.link(caregiver: household.caregiver.id, senior: household.senior.id, as: .hubTerminal, by: "cli")
        return Home(store: store, zosia: household.senior, ania: household.caregiver, tomek: household.admin,
                    tomekActs: try #require(try await store.actor(of: household.admin.id)),
                    aniaActs: try #require(try await store.actor(of: household.caregiver.id)))
    }

    @Test func phoneNumbersAreWhatPeopleWriteWithThreeToFifteenDigits() throws {
        try expectEqual(PhoneNumber.validated(" +48 601 234 567 "), "+48 601 234 567")
        try expectEqual(PhoneNumber.validated("(22) 123-45-67"), "(22) 123-45-67")
        try expectEqual(PhoneNumber.validated("112"), "112")
        #expect(try PhoneNumber.validated("  ") == nil, "an empty number is no number")
        for bad in ["12", "601 234 567 890 123 4", "48+601", "call me", "601234567 ext. 5", "+48\u{0}601"] {
            #expect(throws: HearthError.self, "\(bad)") { try PhoneNumber.validated(bad) }
        }
        expectEqual(PhoneNumber.dialled("+48 (601) 234-567"), "+48601234567")
        expectEqual(PhoneNumber.dialled("22 123 45 67"), "221234567")
    }

    @Test func anyoneRenamesThemselvesAndSetsTheirNumberButOnlyAnAdminChangesOthersAndRoles() async throws {
        let directory = try TemporaryDirectory()
        let home = try await Self.home(directory)
        defer { try? home.store.close() }
        let store = home.store
        let ania = try await store.updatePerson(id: home.ania.id, PersonChange(name: "Ania Nowak", phone: .some("+48 601 234 567")),
                                                as: home.aniaActs, by: "device:a")
        #expect(ania.name == "Ania Nowak" && ania.phone == "+48 601 234 567")
        await #expect(throws: HearthError.forbidden("Your role in the household does not allow this")) {
            _ = try await store.updatePerson(id: home.zosia.id, PersonChange(name: "Mama"), as: home.aniaActs, by: "device:a")
        }
        await #expect(throws: HearthError.forbidden("Your role in the household does not allow this")) {
            _ = try await store.updatePerson(id: home.ania.id, PersonChange(role: .admin), as: home.aniaActs, by: "device:a")
        }
        let renamed = try await store.updatePerson(id: home.zosia.id, PersonChange(name: "Babcia Zofia", phone: .some("22 123 45 67")),
                                                   as: home.tomekActs, by: "device:t")
        expectEqual(renamed.name, "Babcia Zofia")
        // The number is removed with .some(nil); a bad one changes nothing at all.
        await #expect(throws: HearthError.invalid(fields: ["phone": "must be a phone number: digits, optionally starting with +"])) {
            _ = try await store.updatePerson(id: home.zosia.id, PersonChange(name: "Zosia", phone: .some("dzwoń")), as: home.tomekActs, by: "t")
        }
        try await expectEqual(store.person(id: home.zosia.id)?.name, "Babcia Zofia")
        let noNumber = try await store.updatePerson(id: home.zosia.id, PersonChange(phone: .some(nil)), as: home.tomekActs, by: "t")
        #expect(noNumber.phone == nil)
        await #expect(throws: HearthError.conflict("Someone called Ania Nowak is already in the household")) {
            _ = try await store.updatePerson(id: home.tomek.id, PersonChange(name: "ania nowak"), as: home.tomekActs, by: "t")
        }
        await #expect(throws: HearthError.invalid(fields: ["name": "must not be empty"])) {
            _ = try await store.updatePerson(id: home.tomek.id, PersonChange(name: "  "), as: home.tomekActs, by: "t")
        }
    }

    @Test func theHouseholdKeepsAnAdminAndEveryCareLinkJoinsACaregiverToASenior() async throws {
        let directory = try TemporaryDirectory()
        let home = try await Self.home(directory)
        defer { try? home.store.close() }
        let store = home.store
        await #expect(throws: HearthError.conflict("Tomek is the household's only admin: make someone else an admin first")) {
            _ = try await store.updatePerson(id: home.tomek.id, PersonChange(role: .caregiver), as: home.tomekActs, by: "t")
        }
        await #expect(throws: HearthError.conflict("Tomek is the household's only admin: make someone else an admin first")) {
            _ = try await store.archivePerson(id: home.tomek.id, as: home.tomekActs, by: "t")
        }
        await #expect(throws: HearthError.conflict("Ania looks after someone: unlink them first, then make Ania a senior")) {
            _ = try await store.updatePerson(id: home.ania.id, PersonChange(role: .senior), as: home.tomekActs, by: "t")
        }
        await #expect(throws: HearthError.conflict("Someone looks after Babcia Zosia: unlink them first, then change Babcia Zosia's role")) {
            _ = try await store.updatePerson(id: home.zosia.id, PersonChange(role: .caregiver), as: home.tomekActs, by: "t")
        }
        // With a second admin, the first may step down; Ania stays linked as an admin.
        _ = try await store.updatePerson(id: home.ania.id, PersonChange(role: .admin), as: home.tomekActs, by: "t")
        let tomek = try await store.updatePerson(id: home.tomek.id, PersonChange(role: .caregiver), as: home.tomekActs, by: "t")
        expectEqual(tomek.role, .caregiver)
        try await expectEqual(store.seniors(caredForBy: home.ania.id), [home.zosia.id])
    }

    @Test func anArchivedPersonComesBackWithoutDevicesUnlessHerNameIsTakenMeanwhile() async throws {
        let directory = try TemporaryDirectory()
        let home = try await Self.home(directory)
        defer { try? home.store.close() }
        let store = home.store
        await #expect(throws: HearthError.forbidden("Your role in the household does not allow this")) {
            _ = try await store.archivePerson(id: home.zosia.id, as: home.aniaActs, by: "t")
        }
        let archived = try await store.archivePerson(id: home.ania.id, as: home.tomekActs, by: "t")
        #expect(archived.archivedAt != nil)
        let restored = try await store.restorePerson(id: home.ania.id, as: home.tomekActs, by: "t")
        #expect(restored.archivedAt == nil && restored.name == "Ania")
        _ = try await store.archivePerson(id: home.ania.id, as: home.tomekActs, by: "t")
        _ = try await store.addPerson(name: "Ania", role: .caregiver, as: .hubTerminal, by: "t")
        await #expect(throws: HearthError.conflict("Someone called Ania is in the household now: rename one of them first")) {
            _ = try await store.restorePerson(id: home.ania.id, as: home.tomekActs, by: "t")
        }
        await #expect(throws: HearthError.notFound(what: "That archived person")) {
            _ = try await store.restorePerson(id: home.zosia.id, as: home.tomekActs, by: "t")
        }
    }

    @Test func theAuditNamesWhoChangedTheHouseholdAndWhatNewestFirstAndOutlivesCompaction() async throws {
        let directory = try TemporaryDirectory()
        let home = try await Self.home(directory)
        defer { try? home.store.close() }
        let store = home.store
        let code = try await store.createPairing(for: .person(home.tomek.id), deviceName: nil, by: "cli", maker: .hubTerminal)
        let (tomekPhone, token) = try await store.redeemPairing(.secret(code.code.secret), deviceName: "Telefon Tomka", userAgent: nil)
        _ = try await store.pairedDevice(token: token)  // "seen": bookkeeping, not audited
        _ = try await store.updatePerson(id: home.zosia.id, PersonChange(name: "Babcia Zofia", phone: .some("22 123 45 67")),
                                         as: home.tomekActs, by: "device:\(tomekPhone.device.id.text)")
        try await store.removeCareLink(caregiver: home.ania.id, senior: home.zosia.id, as: .hubTerminal, by: "cli")
        _ = try await store.createNote(as: .noteMaker(home.zosia.id), title: "Not the household's shape", text: "", visibility: .private,
                                       pinned: false, by: "t")
        #expect(try await store.compactChanges(olderThan: -3600) > 0, "the change log folds Zosia's creation into her rename")
        let audit = try await store.householdAudit(limit: 3)
        expectEqual(audit.map(\.entity), [.careLink, .person, .pairingCode])
        #expect(audit[0].viaTerminal && audit[0].actorName == nil && audit[0].op == .delete)
        #expect(audit[0].summary.field("caregiverName") == "Ania" && audit[0].summary.field("seniorName") == "Babcia Zofia")
        expectEqual(audit[1].actorName, "Tomek")
        #expect(audit[1].summary.field("name") == "Babcia Zofia" && audit[1].summary.field("formerName") == "Babcia Zosia")
        expectEqual(audit[1].summary.field("phone"), "22 123 45 67")
        let everything = try await store.householdAudit(limit: 500)
        #expect(!everything.contains { $0.entity == .note }, "notes are not the household's shape")
        #expect(everything.filter { $0.entity == .device }.count == 1, "the device's pairing, not its being seen")
        #expect(everything.contains { $0.entity == .person && $0.op == .create && $0.summary.field("name") == "Babcia Zosia" },
                "the audit keeps what the change log folded")
    }
}

extension PersonEditsTests {
    @Test func aCaregiversOwnNameForHerSeniorIsHersAloneAndNeverLogged() async throws {
        let directory = try TemporaryDirectory()
        let home = try await Self.home(directory)
        defer { try? home.store.close() }
        let store = home.store
        let before = try await store.latestSeq()
        // Ania may not rename Zosia, but she may call her Mama.
        _ = try await store.updatePerson(id: home.zosia.id, PersonChange(alias: .some(" Mama ")), as: home.aniaActs, by: "device:a")
        try await expectEqual(store.aliases(givenBy: home.ania.id), [home.zosia.id: "Mama"])
        #expect(try await store.aliases(givenBy: home.tomek.id).isEmpty, "no one else sees it")
        try await expectEqual(store.person(id: home.zosia.id)?.name, "Babcia Zosia")
        let logged = try await store.changes(after: before, limit: 10)
        #expect(logged.count == 1 && logged[0].entity == .careLink && logged[0].op == .update)
        #expect(!((try? logged[0].payload.jsonText()) ?? "").contains("Mama"), "the log, heard by everyone, never has it")
        #expect(!logged[0].changesCareLinks, "her streams stay open: who she looks after is the same")
        #expect(try await store.householdAudit(limit: 50).allSatisfy { $0.summary.field("aliasChanged") == nil })
        // Not for someone she does not look after; removed with nil.
        await #expect(throws: HearthError.invalid(fields: ["alias": "is for a senior you look after"])) {
            _ = try await store.updatePerson(id: home.tomek.id, PersonChange(alias: .some("Szef")), as: home.aniaActs, by: "device:a")
        }
        _ = try await store.updatePerson(id: home.zosia.id, PersonChange(alias: .some(nil)), as: home.aniaActs, by: "device:a")
        #expect(try await store.aliases(givenBy: home.ania.id).isEmpty)
    }
}
