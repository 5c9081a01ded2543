import Foundation
import HearthCore
import HearthReminders
import HearthStore
import Logging
import HearthTestSupport
import Testing

/// The service given a stand-in for the store (`DoseReminding`, all it
/// sees of it): how it sleeps and wakes, with no SQLite.
@Suite struct ReminderServiceWakingTests {
    /// Counts the passes it is asked for, says the next dose is at
    /// `nextCheck`, and keeps the signal the service asked it to ring.
    final class StandIn: DoseReminding {
        let passes = Locked<[Date]>([])
        let signal = Locked<WakeSignal?>(nil)
        let nextCheck: Date

        init(nextCheck: Date) { self.nextCheck = nextCheck }

        func remind(at now: Date, as reminders: PermissionPolicy.Actor) async throws -> ReminderPass {
            expectEqual(reminders, .reminderService, "the service acts as itself")
            passes.withLock { $0.append(now) }
            return ReminderPass(raised: [], repeated: [], nextCheck: nextCheck)
        }

        func ringOnChanges(_ signal: WakeSignal, subscribedTo visible: @escaping @Sendable (Change) -> Bool,
                           ringing rings: (Change) -> Bool) async {
            self.signal.withLock { $0 = signal }
            while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(5)) }
        }
    }

    @Test func itSleepsUntilTheNextCheckAndARingWakesItAtOnce() async throws {
        let start = Date(timeIntervalSince1970: 1_773_000_000)
        let time = SimulatedTime(start)
        let clock = ManualClock(time)
        let store = StandIn(nextCheck: start.addingTimeInterval(3600))
        let service = ReminderService(store: store, clock: clock, logger: Logger(label: "test"), longestSleep: 86_400)
        let running = Task { try await service.run() }
        defer { running.cancel() }

        await expectEqual(clock.sleepingUntil(), start.addingTimeInterval(3600))
        #expect(store.passes.withLock { $0.count } == 1)
        // A change that may move a dose rings: a pass at once, before the hour is up.
        var signal: WakeSignal?
        for _ in 0..<500 where signal == nil {
            signal = store.signal.withLock { $0 }
            try await Task.sleep(for: .milliseconds(2))
        }
        await (try #require(signal)).ring()
        for _ in 0..<500 where store.passes.withLock({ $0.count }) < 2 {
            try await Task.sleep(for: .milliseconds(2))
        }
        #expect(store.passes.withLock { $0 } == [start, start], "woken, not timed out: the clock never moved")
    }
}
