import Foundation
import HearthCore
import HearthReminders
import HearthStore
import Logging
import HearthTestSupport
import Testing

/// The service around the pass: it sleeps exactly until the next dose needs
/// it, and a schedule change wakes it to plan again.
@Suite struct ReminderServiceTests {
    @Test func itSleepsUntilTheNextDoseAndReplansWhenTheScheduleChanges() async throws {
        let home = try await CareHome(start: try CareHome.instant("2026-03-10", "07:00"))
        let (_, schedule) = try await home.medication("Metformina", .weekly(times: [try LocalTime("08:00")], weekdays: Set(1...7)))
        let clock = ManualClock(home.time)
        let raised = Locked<[CareAlert]>([])
        let passes = Locked(0)
        // A day's longest sleep, so the deadline seen is the plan's own.
        let service = ReminderService(store: home.store, clock: clock, logger: Logger(label: "test"), longestSleep: 86_400) { pass in
            raised.withLock { $0 += pass.raised }
            passes.withLock { $0 += 1 }
        }
        let running = Task { try await service.run() }
        defer { running.cancel() }

        // Given a dose at 08:00, when the service starts at 07:00, then it sleeps until 08:00 exactly.
        await expectEqual(clock.sleepingUntil(), (try home.at("2026-03-10", "08:00")))
        let passesBefore = passes.withLock { $0 }

        // When the dose moves to 07:30, the service wakes at once and sleeps until 07:30.
        var edited = schedule
        edited.pattern = .weekly(times: [try LocalTime("07:30")], weekdays: Set(1...7))
        _ = try await home.store.replaceSchedule(id: schedule.id, ofMedication: schedule.medicationId, as: home.caregiverActor, by: "test") { [edited] _ in edited }
        var deadline: Date?
        for _ in 0..<500 where deadline != (try home.at("2026-03-10", "07:30")) {
            try await Task.sleep(for: .milliseconds(5))
            deadline = await clock.sleepingUntil()
        }
        expectEqual(deadline, (try home.at("2026-03-10", "07:30")))
        #expect(passes.withLock { $0 } > passesBefore)

        // When 07:30 comes, the dose is raised, once, at 07:30.
        clock.set(try home.at("2026-03-10", "07:30"))
        for _ in 0..<500 where raised.withLock({ $0.isEmpty }) { try await Task.sleep(for: .milliseconds(5)) }
        let alerts = raised.withLock { $0 }
        expectEqual(alerts.map(\.kind), [.doseDue])
        expectEqual(alerts.first?.raisedAt, (try home.at("2026-03-10", "07:30")))
        // Then it sleeps until the first repeat.
        await expectEqual(clock.sleepingUntil(), (try home.at("2026-03-10", "07:40")))
    }
}
