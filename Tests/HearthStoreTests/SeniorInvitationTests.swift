import Foundation
import HearthCore
@testable import HearthStore
import HearthTestSupport
import Testing

/// A caregiver joins through the senior: the senior's tablet shows a code
/// that pairs someone new as a caregiver who looks after her, and her only.
@Suite struct SeniorInvitationTests {
    /// The household of NotesTests with Zosia's tablet paired; the body gets
    /// the household, its store, the tablet, and Zosia as the policy sees her.
    static func withZosiasTablet(
        _ body: (NotesTests.Household, HearthStore, PairedDevice, PermissionPolicy.Actor) async throws -> Void
    ) async throws {
        let directory = try TemporaryDirectory()
        let home = try await NotesTests.household(directory)
        defer { try? home.store.close() }
        let code = try await home.store.createPairing(for: .person(home.senior.id), deviceName: nil, by: "cli", maker: .hubTerminal)
        let (tablet, _) = try await home.store.redeemPairing(.secret(code.code.secret), deviceName: "Tablet Zosi", userAgent: nil)
        try await body(home, home.store, tablet, tablet.actor)
    }

    @Test func aSeniorsCodeMakesSomeoneNewACaregiverWhoLooksAfterHerOnly() async throws {
        try await Self.withZosiasTablet { home, store, tablet, zosia in
            let invitation = try await store.createPairing(for: .newPerson(name: "Ola", role: .caregiver), deviceName: nil,
                                                           by: "device:\(tablet.device.id.text)", maker: zosia)
            let (olasPhone, _) = try await store.redeemPairing(.secret(invitation.code.secret), deviceName: "Telefon Oli", userAgent: nil)
            #expect(olasPhone.person.name == "Ola" && olasPhone.person.role == .caregiver)
            expectEqual(olasPhone.caresFor, [home.senior.id], "she looks after Zosia, and no one else")
            try await expectEqual(store.actor(of: home.senior.id)?.lookedAfterBy.contains(olasPhone.person.id), true)
            // The admins see it: whom Zosia invited, and the link it made.
            let audit = try await store.householdAudit(limit: 10)
            #expect(audit.contains { $0.entity == .pairingCode && $0.op == .create && $0.summary.field("seniorName") == "Babcia Zosia"
                && $0.summary.field("personName") == "Ola" && $0.actorName == "Babcia Zosia" })
            #expect(audit.contains { $0.entity == .careLink && $0.summary.field("caregiverName") == "Ola" })
        }
    }

    static let refusal = HearthError.forbidden(
        "Only an admin can add a device for someone already in the household; a senior's device invites only someone new to look after her")

    @Test func aSeniorCannotInviteAnAdminOrAnotherSeniorOrSomeoneWhoseNameIsTaken() async throws {
        try await Self.withZosiasTablet { home, store, tablet, zosia in
            for role in [Person.Role.admin, .senior] {
                await #expect(throws: Self.refusal) {
                    _ = try await store.createPairing(for: .newPerson(name: "Nowy", role: role), deviceName: nil,
                                                      by: "device:\(tablet.device.id.text)", maker: zosia)
                }
            }
            // Tomek exists: her code cannot make a device that acts as him, nor a second Tomek.
            await #expect(throws: Self.refusal) {
                _ = try await store.createPairing(for: .person(home.admin.id), deviceName: nil, by: "device:\(tablet.device.id.text)", maker: zosia)
            }
            // Issue 38 #2: nor one for the caregiver who looks after her, who
            // looks after another senior too: her tablet redeemed it and read
            // the other senior's medicines and notes.
            let edek = try await store.addPerson(name: "Dziadek Edek", role: .senior, as: .hubTerminal, by: "t")
            for senior in [home.senior.id, edek.id] {
                try await store.link(caregiver: home.caregiver.id, senior: senior, as: .init(personId: home.admin.id, role: .admin), by: "t")
            }
            await #expect(throws: Self.refusal) {
                _ = try await store.createPairing(for: .person(home.caregiver.id), deviceName: nil,
                                                  by: "device:\(tablet.device.id.text)", maker: zosia)
            }
            await #expect(throws: HearthError.self) {
                _ = try await store.createPairing(for: .newPerson(name: "Tomek", role: .caregiver), deviceName: nil,
                                                  by: "device:\(tablet.device.id.text)", maker: zosia)
            }
            // A caregiver's device makes no codes at all.
            let ania = try #require(try await store.actor(of: home.caregiver.id))
            await #expect(throws: HearthError.self) {
                _ = try await store.createPairing(for: .newPerson(name: "Nowy", role: .caregiver), deviceName: nil, by: "device:x", maker: ania)
            }
        }
    }

    @Test func aCodeFromATabletRevokedSinceOrASeniorNoMorePairsNobody() async throws {
        try await Self.withZosiasTablet { home, store, tablet, zosia in
            let invitation = try await store.createPairing(for: .newPerson(name: "Ola", role: .caregiver), deviceName: nil,
                                                           by: "device:\(tablet.device.id.text)", maker: zosia)
            try await store.revokeDevice(id: tablet.device.id, as: .hubTerminal, by: "cli")
            await #expect(throws: HearthError.self) {
                _ = try await store.redeemPairing(.secret(invitation.code.secret), deviceName: "Telefon Oli", userAgent: nil)
            }
            #expect(try await store.person(named: "Ola") == nil, "nobody was added")
        }
    }

    @Test func whenTheHouseholdAsksADeviceHerCodePairedWaitsForAnAdminsApproval() async throws {
        try await Self.withZosiasTablet { home, store, tablet, zosia in
            let invitation = try await store.createPairing(for: .newPerson(name: "Ola", role: .caregiver), deviceName: nil,
                                                           by: "device:\(tablet.device.id.text)", maker: zosia, seniorInvitesNeedApproval: true)
            let (olasPhone, token) = try await store.redeemPairing(.secret(invitation.code.secret), deviceName: "Telefon Oli", userAgent: nil)
            #expect(olasPhone.device.awaitingApproval)
            try await expectEqual(store.pairedDevice(token: token)?.device.awaitingApproval, true)
            let ania = try #require(try await store.actor(of: home.caregiver.id))
            // Ola's phone is not Ania's to see: for her it is no device at all.
            await #expect(throws: HearthError.notFound(what: "That device")) {
                try await store.approveDevice(id: olasPhone.device.id, as: ania, by: "device:a")
            }
            try await store.approveDevice(id: olasPhone.device.id, as: .hubTerminal, by: "cli")
            try await expectEqual(store.pairedDevice(token: token)?.device.awaitingApproval, false)
            await #expect(throws: HearthError.conflict("That device does not wait for approval")) {
                try await store.approveDevice(id: olasPhone.device.id, as: .hubTerminal, by: "cli")
            }
            // An admin's code never waits, whatever the household asks.
            let adminCode = try await store.createPairing(for: .newPerson(name: "Jan", role: .caregiver), deviceName: nil, by: "cli", maker: .hubTerminal,
                                                          seniorInvitesNeedApproval: true)
            let (jansPhone, _) = try await store.redeemPairing(.secret(adminCode.code.secret), deviceName: "Telefon Jana", userAgent: nil)
            #expect(!jansPhone.device.awaitingApproval)
        }
    }
}
