import Foundation
import GRDB
import HearthCore
@testable import HearthStore
import HearthTestSupport
import Testing

@Suite struct PairingTests {
    /// A clock the test moves by hand.
    final class TestClock: Sendable {
        private let current = Locked(Date(timeIntervalSince1970: 1_800_000_000))
        var now: Date { current.withLock { $0 } }
        func advance(_ seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
    }

    static func store(_ directory: borrowing TemporaryDirectory, clock: TestClock = TestClock()) throws -> HearthStore {
        try HearthStore(directory: directory.url, now: { clock.now })
    }

    @Test func aCodeForSomeoneNewPairsOnceAndCreatesThem() async throws {
        let directory = try TemporaryDirectory()
        let store = try Self.store(directory)
        defer { try? store.close() }
        let invitation = try await store.createPairing(for: .newPerson(name: "Anna", role: .admin), deviceName: nil, by: "cli", maker: .hubTerminal)
        try await expectEqual(store.pairingStatus(id: invitation.id), .waiting)

        let (paired, token) = try await store.redeemPairing(.secret(invitation.code.secret), deviceName: "Anna's phone", userAgent: "Firefox")
        expectEqual(paired.person.name, "Anna")
        expectEqual(paired.person.role, .admin)
        expectEqual(paired.device.name, "Anna's phone")
        try await expectEqual(store.pairingStatus(id: invitation.id), .paired(deviceName: "Anna's phone", personName: "Anna", role: .admin))
        try await expectEqual(store.pairedDevice(token: token)?.device.id, paired.device.id)

        // The same code again, by either form, is refused and pairs nothing.
        await #expect(throws: HearthError.self) {
            _ = try await store.redeemPairing(.secret(invitation.code.secret), deviceName: "Thief", userAgent: nil)
        }
        await #expect(throws: HearthError.self) {
            _ = try await store.redeemPairing(.shortCode(invitation.code.displayedShortCode), deviceName: "Thief", userAgent: nil)
        }
        try await expectEqual(store.devices().count, 1)
        try await expectEqual(store.people().map(\.name), ["Anna"])
    }

    @Test func theShortCodeWorksAsTyped() async throws {
        let directory = try TemporaryDirectory()
        let store = try Self.store(directory)
        defer { try? store.close() }
        let senior = try await store.addPerson(name: "Babcia Zosia", role: .senior, as: .hubTerminal, by: "cli")
        let invitation = try await store.createPairing(for: .person(senior.id), deviceName: "Kitchen tablet", by: "cli", maker: .hubTerminal)
        let typed = invitation.code.displayedShortCode.lowercased()
        let (paired, _) = try await store.redeemPairing(.shortCode(typed), deviceName: nil, userAgent: nil)
        expectEqual(paired.person.id, senior.id)
        expectEqual(paired.device.name, "Kitchen tablet", "the name chosen when pairing started")
    }

    @Test func thePagesGuessGivesWayToTheNameTheCodeWasMadeWithAndThePersonsOwnChoiceToBoth() async throws {
        let directory = try TemporaryDirectory()
        let store = try Self.store(directory)
        defer { try? store.close() }
        let senior = try await store.addPerson(name: "Babcia Zosia", role: .senior, as: .hubTerminal, by: "cli")
        let named = try await store.createPairing(for: .person(senior.id), deviceName: "Kitchen tablet", by: "cli", maker: .hubTerminal)
        let (kept, _) = try await store.redeemPairing(.secret(named.code.secret), deviceName: nil, suggestedDeviceName: "Tablet", userAgent: nil)
        expectEqual(kept.device.name, "Kitchen tablet", "hearth pair --device-name is kept over the page's guess")
        let unnamed = try await store.createPairing(for: .person(senior.id), deviceName: nil, by: "cli", maker: .hubTerminal)
        let (guessed, _) = try await store.redeemPairing(.secret(unnamed.code.secret), deviceName: nil, suggestedDeviceName: "Tablet", userAgent: nil)
        expectEqual(guessed.device.name, "Tablet")
        let again = try await store.createPairing(for: .person(senior.id), deviceName: "Kitchen tablet", by: "cli", maker: .hubTerminal)
        let (chosen, _) = try await store.redeemPairing(.secret(again.code.secret), deviceName: "Bedroom tablet", suggestedDeviceName: "Tablet", userAgent: nil)
        expectEqual(chosen.device.name, "Bedroom tablet", "what the person typed wins")
        let last = try await store.createPairing(for: .person(senior.id), deviceName: nil, by: "cli", maker: .hubTerminal)
        await #expect(throws: HearthError.invalid(fields: ["suggestedDeviceName": "must not be empty"])) {
            _ = try await store.redeemPairing(.secret(last.code.secret), deviceName: nil, suggestedDeviceName: " ", userAgent: nil)
        }
    }

    @Test func anExpiredCodeIsRefused() async throws {
        let directory = try TemporaryDirectory()
        let clock = TestClock()
        let store = try Self.store(directory, clock: clock)
        defer { try? store.close() }
        let invitation = try await store.createPairing(for: .newPerson(name: "Piotr", role: .caregiver), deviceName: nil,
                                                       lifetime: .seconds(60), by: "cli", maker: .hubTerminal)
        clock.advance(61)
        try await expectEqual(store.pairingStatus(id: invitation.id), .expired)
        await #expect(throws: HearthError.self) {
            _ = try await store.redeemPairing(.secret(invitation.code.secret), deviceName: "Phone", userAgent: nil)
        }
        #expect(try await store.people().isEmpty)
    }

    @Test func wrongShortCodesBurnNobodysCodeAndWriteNothing() async throws {
        let directory = try TemporaryDirectory()
        let store = try Self.store(directory)
        defer { try? store.close() }
        let invitation = try await store.createPairing(for: .newPerson(name: "Ewa", role: .caregiver), deviceName: nil, by: "cli", maker: .hubTerminal)
        let wrong = invitation.code.shortCode == "00000000" ? "11111111" : "00000000"
        let before = try await store.latestSeq()
        for attempt in 1...20 {
            await #expect(throws: HearthError.self, "attempt \(attempt)") {
                _ = try await store.redeemPairing(.shortCode(wrong), deviceName: "Phone", userAgent: nil)
            }
        }
        try await expectEqual(store.latestSeq(), before, "a guess writes nothing")
        try await expectEqual(store.pairingStatus(id: invitation.id), .waiting)
        // The admin's invitation still pairs, typed or scanned.
        _ = try await store.redeemPairing(.shortCode(invitation.code.shortCode), deviceName: "Phone", userAgent: nil)
        try await expectEqual(store.people().map(\.name), ["Ewa"])
    }

    @Test func malformedCodesAreRefusedWithoutCounting() async throws {
        let directory = try TemporaryDirectory()
        let store = try Self.store(directory)
        defer { try? store.close() }
        let invitation = try await store.createPairing(for: .newPerson(name: "Jan", role: .caregiver), deviceName: nil, by: "cli", maker: .hubTerminal)
        for garbage in ["", "not-a-code", String(repeating: "x", count: 500)] {
            await #expect(throws: HearthError.self) {
                _ = try await store.redeemPairing(.secret(garbage), deviceName: "Phone", userAgent: nil)
            }
            await #expect(throws: HearthError.self) {
                _ = try await store.redeemPairing(.shortCode(garbage), deviceName: "Phone", userAgent: nil)
            }
        }
        try await expectEqual(store.pairingStatus(id: invitation.id), .waiting)
    }

    @Test func onlyHashesOfTokensAndCodesAreStored() async throws {
        let directory = try TemporaryDirectory()
        let store = try Self.store(directory)
        defer { try? store.close() }
        let invitation = try await store.createPairing(for: .newPerson(name: "Ola", role: .senior), deviceName: nil, by: "cli", maker: .hubTerminal)
        let (_, token) = try await store.redeemPairing(.secret(invitation.code.secret), deviceName: "Tablet", userAgent: nil)
        try store.close()

        // Read the file's bytes, WAL included: no secret appears anywhere.
        var bytes = Data()
        for suffix in ["", "-wal"] {
            bytes += (try? Data(contentsOf: directory.url.appendingPathComponent("hearth.sqlite" + suffix))) ?? Data()
        }
        for secret in [token, invitation.code.secret, invitation.code.shortCode] {
            #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(secret) is stored in the clear")
        }
        expectEqual(token.count, 43, "256 bits, base64url")
    }

    @Test func aRevokedDeviceOrArchivedPersonIsNoLongerRecognised() async throws {
        let directory = try TemporaryDirectory()
        let store = try Self.store(directory)
        defer { try? store.close() }
        let first = try await store.createPairing(for: .newPerson(name: "Marek", role: .caregiver), deviceName: nil, by: "cli", maker: .hubTerminal)
        let (phone, phoneToken) = try await store.redeemPairing(.secret(first.code.secret), deviceName: "Phone", userAgent: nil)
        let second = try await store.createPairing(for: .person(phone.person.id), deviceName: nil, by: "cli", maker: .hubTerminal)
        let (_, laptopToken) = try await store.redeemPairing(.secret(second.code.secret), deviceName: "Laptop", userAgent: nil)

        // Both are recognised once, so the hub remembers who they are.
        #expect(try await store.pairedDevice(token: phoneToken) != nil)
        #expect(try await store.pairedDevice(token: laptopToken) != nil)
        try await store.revokeDevice(id: phone.device.id, as: PermissionPolicy.Actor(personId: UUID(), role: .admin), by: "cli")
        #expect(try await store.pairedDevice(token: phoneToken) == nil)
        #expect(try await store.pairedDevice(token: laptopToken) != nil)

        _ = try await store.archivePerson(id: phone.person.id, as: .hubTerminal, by: "cli")
        #expect(try await store.pairedDevice(token: laptopToken) == nil)
        #expect(try await store.devices(includingRevoked: false).isEmpty)
        #expect(try await store.pairedDevice(token: "forged-\(phoneToken)") == nil)
    }

    @Test func aDeviceRevokedByAnotherProcessIsRefusedOnceItsChangeIsPublished() async throws {
        let directory = try TemporaryDirectory()
        let hub = try Self.store(directory)
        defer { try? hub.close() }
        let pairing = try await hub.createPairing(for: .newPerson(name: "Marek", role: .caregiver), deviceName: nil, by: "cli", maker: .hubTerminal)
        let (phone, token) = try await hub.redeemPairing(.secret(pairing.code.secret), deviceName: "Phone", userAgent: nil)
        let senior = try await hub.addPerson(name: "Babcia", role: .senior, as: .hubTerminal, by: "cli")
        try await expectEqual(hub.pairedDevice(token: token)?.caresFor, [])

        // `hearth people link` and `hearth devices revoke` write the same file from another process.
        let cli = try Self.store(directory)
        try await cli.link(caregiver: phone.person.id, senior: senior.id, as: .hubTerminal, by: "cli")
        try await hub.publishExternalChanges()
        try await expectEqual(hub.pairedDevice(token: token)?.caresFor, [senior.id])
        try await cli.revokeDevice(id: phone.device.id, as: PermissionPolicy.Actor(personId: UUID(), role: .admin), by: "cli")
        try cli.close()
        try await hub.publishExternalChanges()
        #expect(try await hub.pairedDevice(token: token) == nil)
    }

    @Test func careLinksGoFromCaregiverToSenior() async throws {
        let directory = try TemporaryDirectory()
        let store = try Self.store(directory)
        defer { try? store.close() }
        let senior = try await store.addPerson(name: "Dziadek", role: .senior, as: .hubTerminal, by: "cli")
        let caregiver = try await store.addPerson(name: "Kasia", role: .caregiver, as: .hubTerminal, by: "cli")
        try await store.link(caregiver: caregiver.id, senior: senior.id, as: .hubTerminal, by: "cli")
        let linked = try await store.latestSeq()
        // Twice is a conflict that writes nothing.
        await #expect(throws: HearthError.conflict("Kasia already looks after Dziadek")) {
            try await store.link(caregiver: caregiver.id, senior: senior.id, as: .hubTerminal, by: "cli")
        }
        try await expectEqual(store.latestSeq(), linked)
        try await expectEqual(store.seniors(caredForBy: caregiver.id), [senior.id])
        // Only an admin shapes the household; the caregiver cannot link herself to another senior.
        let other = try await store.addPerson(name: "Babcia", role: .senior, as: .hubTerminal, by: "cli")
        await #expect(throws: HearthError.forbidden("Your role in the household does not allow this")) {
            try await store.link(caregiver: caregiver.id, senior: other.id,
                                 as: PermissionPolicy.Actor(personId: caregiver.id, role: .caregiver, caresFor: [senior.id]), by: "cli")
        }
        // Unlinked, she looks after no one; unlinking again is unknown.
        try await store.removeCareLink(caregiver: caregiver.id, senior: senior.id, as: .hubTerminal, by: "cli")
        #expect(try await store.seniors(caredForBy: caregiver.id).isEmpty)
        let unlinked = try await store.changes(after: linked, limit: 10)
        #expect(unlinked.map(\.op) == [.create, .delete] && unlinked.last?.entity == .careLink)
        await #expect(throws: HearthError.notFound(what: "That care link")) {
            try await store.removeCareLink(caregiver: caregiver.id, senior: senior.id, as: .hubTerminal, by: "cli")
        }
        try await store.link(caregiver: caregiver.id, senior: senior.id, as: .hubTerminal, by: "cli")
        await #expect(throws: HearthError.self) { try await store.link(caregiver: senior.id, senior: caregiver.id, as: .hubTerminal, by: "cli") }
        await #expect(throws: HearthError.self) { _ = try await store.addPerson(name: "kasia", role: .admin, as: .hubTerminal, by: "cli") }
    }
}
