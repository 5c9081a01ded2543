import Foundation
@testable import HearthCore
import HearthTestSupport
import Testing

@Suite struct HybridTimeTests {
    @Test func theTextSortsAsTheReadingsDoAndReadsBack() throws {
        let device = "7d4f3c2a-1b2c-4d5e-8f90-123456789abc"
        let readings = [
            HybridTime(milliseconds: 0, counter: 0, node: "hub"),
            HybridTime(milliseconds: 1_795_420_800_000, counter: 0, node: device),
            HybridTime(milliseconds: 1_795_420_800_000, counter: 0, node: "hub"),
            HybridTime(milliseconds: 1_795_420_800_000, counter: 0xA, node: device),
            HybridTime(milliseconds: 1_795_420_800_001, counter: 0, node: device),
            HybridTime(milliseconds: 951_782_400_123, counter: 0xFFFF, node: device),  // 2000-02-29
            HybridTime(milliseconds: HybridTime.maximumMilliseconds, counter: 1, node: "hub"),
        ]
        for reading in readings {
            expectEqual(HybridTime(reading.description), reading, "\(reading)")
        }
        #expect(readings.sorted() == readings.sorted { $0.description < $1.description })
        #expect(HybridTime(milliseconds: 1_795_420_800_000, counter: 0xA, node: device).description
                == "2026-11-23T08:00:00.000Z-000a-\(device)")
        expectEqual(HybridTime(milliseconds: 951_782_400_123, counter: 0xFFFF, node: "hub").description, "2000-02-29T00:00:00.123Z-ffff-hub")
    }

    @Test(arguments: [
        "", "2026-11-23T08:00:00.000Z-0000-", "2026-11-23T08:00:00Z-0000-hub", "2026-11-23 08:00:00.000Z-0000-hub",
        "2026-13-01T08:00:00.000Z-0000-hub", "2026-02-29T08:00:00.000Z-0000-hub", "2026-11-23T24:00:00.000Z-0000-hub",
        "2026-11-23T08:00:00.000Z-000G-hub", "2026-11-23T08:00:00.000Z-000A-hub", "2026-11-23T08:00:00.000Z-0000-HUB",
        "1969-12-31T23:59:59.999Z-0000-hub", "2026-11-23T08:00:00.000Z-00000-hub", "2026-11-23T08:00:00.000+01:00-0000-hub",
        "2026-11-23T08:00:00.000Z-0000-hub/../x", "2026-11-23T08:00:00.000Z-0000-" + String(repeating: "a", count: 65),
    ])
    func malformedReadingsAreRefused(text: String) {
        #expect(HybridTime(text) == nil)
    }

    @Test func theClockNeverGoesBackAndStampsAfterWhatItHeard() {
        var clock = HybridClock(node: "a")
        let first = clock.next(physical: 1000)
        let sameMillisecond = clock.next(physical: 1000)
        let wallClockBack = clock.next(physical: 500)
        #expect(first < sameMillisecond && sameMillisecond < wallClockBack)
        #expect(wallClockBack.milliseconds == 1000 && wallClockBack.counter == 2)

        // Hearing of a reading from a node whose clock is ahead: the next stamp follows it.
        let heard = HybridTime(milliseconds: 9000, counter: 7, node: "b")
        clock.observe(heard)
        let after = clock.next(physical: 1001)
        #expect(after > heard)
        expectEqual(after.node, "a")
        // Whatever the node names, an event after hearing of it is later.
        #expect(after > HybridTime(milliseconds: 9000, counter: 7, node: "zzz"))

        // 65,536 events in one millisecond move on to the next.
        var busy = HybridClock(node: "a", latest: HybridTime(milliseconds: 5, counter: HybridTime.maximumCounter, node: "a"))
        let overflow = busy.next(physical: 5)
        #expect(overflow.milliseconds == 6 && overflow.counter == 0)
    }
}
