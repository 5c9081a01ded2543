import Foundation
import HearthCore
import HearthStore
import HearthTestSupport
import Testing

/// A Pi with no real-time clock may boot years off: the hub notices, says so
/// once, and schedules by a phone's time when someone taps "use this phone's time".
@Suite struct ClockDistrustTests {
    @Test func aClockEarlierThanTheLastStoredTimeRaisesOneClockAlert() async throws {
        let home = try await CareHome(start: try CareHome.instant("2026-03-10", "09:00"))
        try await home.medication("Ramipril", .weekly(times: [try LocalTime("08:00")], weekdays: Set(1...7)))
        // A minute back is ordinary jitter; an hour back is not.
        home.time.set(try home.at("2026-03-10", "08:59"))
        _ = try await home.store.remind(at: home.time.now, as: .reminderService)
        #expect(try await home.alerts().filter { $0.kind == .clock }.isEmpty)
        home.time.set(try home.at("2026-03-10", "07:00"))
        _ = try await home.store.remind(at: home.time.now, as: .reminderService)
        _ = try await home.store.remind(at: home.time.now.addingTimeInterval(60), as: .reminderService)
        let clock = try await home.alerts().filter { $0.kind == .clock }
        expectEqual(clock.count, 1)
        expectEqual(clock.first?.audience, .keepers)
        expectEqual(clock.first?.details.field("reason"), .string("earlier-than-stored"))
    }

    @Test func aPhoneTwoMinutesApartIsBelievedAndTheCorrectionOutlivesARestart() async throws {
        let home = try await CareHome(start: try CareHome.instant("2026-03-10", "09:00"))
        let phone = home.time.now.addingTimeInterval(90)
        let close = try await home.store.compareClock(deviceTime: phone, by: "test")
        #expect(!close.looksWrong)
        #expect(try await home.alerts().isEmpty)

        let farAhead = home.time.now.addingTimeInterval(3 * 86_400)
        let far = try await home.store.compareClock(deviceTime: farAhead, by: "test")
        #expect(far.looksWrong && far.difference == 3 * 86_400)
        try await expectEqual(home.alerts().map(\.kind), [.clock])

        _ = try await home.store.correctClock(to: farAhead, by: "test", corrector: .hubTerminal, confirmed: true)
        #expect(abs(home.store.currentTime().timeIntervalSince(farAhead)) < 1)
        #expect(try await home.alerts().allSatisfy { !$0.isOpen })
        try home.restart()
        #expect(abs(home.store.currentTime().timeIntervalSince(farAhead)) < 1)
        // The corrected time is what the hub now writes.
        let medication = try await home.store.addMedication(
            Medication(personId: home.senior.id, name: "Lek", createdAt: Date(), updatedAt: Date()), as: home.caregiverActor, by: "test")
        #expect(abs(medication.createdAt.timeIntervalSince(farAhead)) < 1)
    }
}
