import Foundation
import HearthCore
@testable import HearthStore
import HearthTestSupport
import Testing

/// The hub's time moves every dose, code and Trash's 30 days: who may move
/// it, how far, and what waits after it moved.
@Suite struct ClockJumpTests {
    typealias TestClock = PairingTests.TestClock

    static let caregiver = PermissionPolicy.Actor(personId: UUID(), role: .caregiver, caresFor: [UUID()])
    static let admin = PermissionPolicy.Actor(personId: UUID(), role: .admin)
    static let senior = PermissionPolicy.Actor(personId: UUID(), role: .senior)

    static func household(_ directory: borrowing TemporaryDirectory, clock: TestClock) async throws -> (HearthStore, Person) {
        let store = try PairingTests.store(directory, clock: clock)
        try await store.ensureHousehold(name: "Dom", timeZone: "Europe/Warsaw")
        let owner = try await store.addPerson(name: "Babcia", role: .senior, as: .hubTerminal, by: "t")
        return (store, owner)
    }

    @Test func aCaregiverSetsTheTimeOnceAndNearItsLastRecordAnAdminFarOnlyWhenSure() async throws {
        let directory = try TemporaryDirectory()
        let clock = TestClock()
        let (store, _) = try await Self.household(directory, clock: clock)
        defer { try? store.close() }
        let start = store.currentTime()
        // A senior never; a caregiver not a month away
        await #expect(throws: HearthError.self) {
            try await store.correctClock(to: start.addingTimeInterval(3600), by: "t", corrector: Self.senior)
        }
        await #expect(throws: HearthError.self) {
            try await store.correctClock(to: start.addingTimeInterval(30 * 86_400), by: "t", corrector: Self.caregiver)
        }
        expectEqual(store.currentTime(), start, "a refused correction moves nothing")
        // A caregiver a day ahead, once after the hub started
        _ = try await store.correctClock(to: start.addingTimeInterval(86_400), by: "t", corrector: Self.caregiver)
        #expect(abs(store.currentTime().timeIntervalSince(start) - 86_400) < 1)
        await #expect(throws: HearthError.self) {
            try await store.correctClock(to: start.addingTimeInterval(86_500), by: "t", corrector: Self.caregiver)
        }
        // An admin a month away only when sure
        await #expect(throws: HearthError.self) {
            try await store.correctClock(to: start.addingTimeInterval(30 * 86_400), by: "t", corrector: Self.admin)
        }
        _ = try await store.correctClock(to: start.addingTimeInterval(30 * 86_400), by: "t", corrector: Self.admin, confirmed: true)
        #expect(abs(store.currentTime().timeIntervalSince(start) - 30 * 86_400) < 1)
    }

    @Test func aMonthAheadEmptiesNoTrashAndFoldsNoLogUntilTheTimeHasStayedPutForADay() async throws {
        let directory = try TemporaryDirectory()
        let clock = TestClock()
        let (store, owner) = try await Self.household(directory, clock: clock)
        defer { try? store.close() }
        // Given Babcia's private diary in Trash since an hour ago
        let diary = try await store.createNote(as: .noteMaker(owner.id), title: "Pamiętnik", text: "", visibility: .private, pinned: false, by: "t")
        _ = try await store.trashNote(id: diary.id, as: .init(personId: diary.ownerId, role: .admin), by: "t")
        clock.advance(3600)
        let entries = try await store.latestSeq()
        // When an admin sets the hub a month ahead
        _ = try await store.correctClock(to: store.currentTime().addingTimeInterval(31 * 86_400), by: "t",
                                         corrector: Self.admin, confirmed: true)
        // Then Trash and the log are left as they are for a day
        #expect(try await store.purgeTrash(by: "hub").isEmpty)
        try await expectEqual(store.compactChanges(olderThan: 7 * 86_400), 0)
        clock.advance(23 * 3600)
        #expect(try await store.purgeTrash(by: "hub").isEmpty)
        #expect(try await store.note(id: diary.id) != nil)
        // And once it stayed put a day, the month is taken as true
        clock.advance(3600)
        try await expectEqual(store.purgeTrash(by: "hub"), [diary.id])
        #expect(try await store.latestSeq() > entries)
    }

    @Test func aHubThatStartsAMonthAfterItsLastRecordWaitsADayBeforeEmptyingTrash() async throws {
        let directory = try TemporaryDirectory()
        let clock = TestClock()
        var (store, owner) = try await Self.household(directory, clock: clock)
        let note = try await store.createNote(as: .noteMaker(owner.id), title: "Lista", text: "", visibility: .private, pinned: false, by: "t")
        _ = try await store.trashNote(id: note.id, as: .init(personId: note.ownerId, role: .admin), by: "t")
        try store.close()
        // A Pi started with its clock a month ahead
        clock.advance(31 * 86_400)
        store = try PairingTests.store(directory, clock: clock)
        defer { try? store.close() }
        #expect(try await store.purgeTrash(by: "hub").isEmpty)
        clock.advance(86_400)
        try await expectEqual(store.purgeTrash(by: "hub"), [note.id])
        _ = owner
    }

    @Test func theSystemClockJumpingWhileTheHubRunsIsNoticed() {
        let wall = Locked(Date(timeIntervalSince1970: 1_800_000_000))
        let steady = Locked(0.0)
        let steadiness = ClockSteadiness(wall: wall.withLock { $0 }, steadyNow: { steady.withLock { $0 } }, startsJumped: false)
        func pass(_ seconds: TimeInterval, wallMoves: TimeInterval? = nil) {
            steady.withLock { $0 += seconds }
            wall.withLock { $0 = $0.addingTimeInterval(wallMoves ?? seconds) }
        }
        pass(3600)
        #expect(steadiness.isSettled(wall: wall.withLock { $0 }))
        // NTP's slow slewing is no jump; a month in a second is
        pass(3600, wallMoves: 3601)
        #expect(steadiness.isSettled(wall: wall.withLock { $0 }))
        pass(1, wallMoves: 30 * 86_400)
        #expect(!steadiness.isSettled(wall: wall.withLock { $0 }))
        pass(86_000)
        #expect(!steadiness.isSettled(wall: wall.withLock { $0 }))
        pass(400)
        #expect(steadiness.isSettled(wall: wall.withLock { $0 }))
    }

    @Test func settingTheClockBackBurnsOpenPairingCodes() async throws {
        let directory = try TemporaryDirectory()
        let clock = TestClock()
        let (store, _) = try await Self.household(directory, clock: clock)
        defer { try? store.close() }
        // A code made now, which would expire in ten minutes
        let invitation = try await store.createPairing(for: .newPerson(name: "Ola", role: .caregiver), deviceName: nil, by: "cli", maker: .hubTerminal)
        // When the hub's time is set an hour back
        _ = try await store.correctClock(to: store.currentTime().addingTimeInterval(-3600), by: "t", corrector: Self.admin)
        // Then it pairs nobody, though by the new time it was "made in the future"
        await #expect(throws: HearthError.self) {
            _ = try await store.redeemPairing(.secret(invitation.code.secret), deviceName: "Phone", userAgent: nil)
        }
        #expect(try await store.devices().isEmpty)
    }
}
