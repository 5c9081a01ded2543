import Foundation
import HearthCore
@testable import HearthKit
import HearthTestSupport
import Testing

/// A tablet left on the Today screen overnight: at the household's midnight
/// the observation moves on to the new day's doses without any sync or edit.
@Suite struct TodayRolloverTests {
    /// A wall clock that moves only when the test moves it.
    final class HandClock: Sendable {
        let time: Locked<Date>
        init(_ start: Date) { time = Locked(start) }
        func set(_ date: Date) { time.withLock { $0 = date } }
        var deviceClock: DeviceClock {
            DeviceClock(now: { [time] in time.withLock { $0 } }, sleepUntil: { [time] moment in
                while time.withLock({ $0 }) < moment { try await Task.sleep(for: .milliseconds(5)) }
            })
        }
    }

    @Test func theObservationMovesToTheNextDayAtMidnightWithNothingElseChanging() async throws {
        try await LoopbackHousehold.with { home in
            _ = try await home.addMedication(name: "Metformina", time: "08:00")
            let ania = try HearthKitSyncTests.client(home, home.caregiver)
            try await ania.sync()
            // A day ahead of the schedule's start, the evening before.
            let day = LocalDate(Date(), in: home.zone).adding(days: 10)
            let midnight = try #require(HearthMirror.midnight(after: day, in: home.zone.identifier))
            let clock = HandClock(midnight.addingTimeInterval(-60))
            let seen = Locked<[[LocalDate]]>([])
            let watcher = Task {
                for try await doses in ania.mirror.observeToday(on: nil, clock: clock.deviceClock) {
                    let count = seen.withLock { $0.append(doses.map(\.date)); return $0.count }
                    if count == 2 { break }
                }
            }
            try await Task.sleep(for: .milliseconds(300))
            #expect(seen.withLock { $0 } == [[day]], "one dose at 08:00 on the evening's day, and nothing more before midnight")

            clock.set(midnight.addingTimeInterval(1))
            let deadline = Task {
                try await Task.sleep(for: .seconds(10))
                watcher.cancel()
            }
            try await watcher.value
            deadline.cancel()
            #expect(seen.withLock { $0 } == [[day], [day.adding(days: 1)]])
        }
    }

    @Test func aWatchOfAGivenDateStaysOnThatDate() async throws {
        try await LoopbackHousehold.with { home in
            _ = try await home.addMedication(name: "Bisoprolol", time: "20:00")
            let ania = try HearthKitSyncTests.client(home, home.caregiver)
            try await ania.sync()
            let day = LocalDate(Date(), in: home.zone).adding(days: 3)
            let clock = HandClock(try #require(HearthMirror.midnight(after: day, in: home.zone.identifier)).addingTimeInterval(-1))
            let first = Task { () -> [TodayDose]? in
                for try await doses in ania.mirror.observeToday(on: day, clock: clock.deviceClock) { return doses }
                return nil
            }
            clock.set(Date.distantFuture)
            try await expectEqual(first.value?.map(\.date), [day])
        }
    }

    /// The first instant of the next day, also across clock changes and where
    /// a clock change skips local midnight (Chile moves 00:00 to 01:00).
    @Test(arguments: [
        ("Europe/Warsaw", "2026-03-28"), ("Europe/Warsaw", "2026-03-29"), ("Europe/Warsaw", "2026-10-24"),
        ("America/New_York", "2026-03-07"), ("America/Santiago", "2026-09-05"), ("Asia/Kolkata", "2028-02-28"),
    ])
    func midnightIsTheFirstInstantOfTheNextDay(zone: String, date: String) throws {
        let day = try LocalDate(date)
        let timeZone = try #require(TimeZone(identifier: zone))
        let midnight = try #require(HearthMirror.midnight(after: day, in: zone))
        expectEqual(LocalDate(midnight, in: timeZone), day.adding(days: 1))
        expectEqual(LocalDate(midnight.addingTimeInterval(-1), in: timeZone), day)
    }
}
