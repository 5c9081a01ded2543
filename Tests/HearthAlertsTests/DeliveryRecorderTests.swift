import Foundation
@testable import HearthAlerts
import HearthCore
import HearthStore
import Logging
import ServiceLifecycle
import HearthTestSupport
import Testing

/// The recorder holds the store only as `DeliveryRecords`, so a stand-in
/// whose disk is busy can show what happens then, with no SQLite.
struct DeliveryRecorderTests {
    /// Refuses the first `failures` writes, then keeps what it is given.
    final class BusyDisk: DeliveryRecords, @unchecked Sendable {
        struct Busy: Error {}
        private let lock = NSLock()
        private var failures: Int
        private(set) var kept: [(alertId: UUID, delivery: AlertDelivery)] = []
        private(set) var writes = 0

        init(failures: Int) { self.failures = failures }

        func recordDeliveries(_ deliveries: [(alertId: UUID, delivery: AlertDelivery)]) async throws {
            try lock.withLock {
                writes += 1
                if failures > 0 {
                    failures -= 1
                    throw Busy()
                }
                kept += deliveries
            }
        }
    }

    @Test func whereAnAlertWentIsKeptWithTheNextSecondWhenTheDiskWasBusy() async throws {
        let board = DeliveryBoard()
        let disk = BusyDisk(failures: 1)
        let recorder = DeliveryRecorder(store: disk, board: board, logger: Logger(label: "test"))
        let sos = UUID.random()
        let at = Date(millisecondsSince1970: 1_800_000_000_000)
        board.shown(alert: sos, on: UUID.random(), change: 7)
        board.record(.init(channel: .voice, recipient: "speaker", recipientName: "the hub", messageId: "v1", alertId: sos, at: at))
        // A test message is about no alert: it is never kept.
        board.record(.init(channel: .alertApp, recipient: "alert-app:x", recipientName: "Anna's phone", messageId: "t", alertId: nil, at: at))

        await recorder.flush()
        #expect(disk.writes == 1 && disk.kept.isEmpty)
        board.record(.init(channel: .page, recipient: "device:y", recipientName: "device", messageId: "h8", alertId: sos, at: at))
        await recorder.flush()
        expectEqual(disk.writes, 2)
        expectEqual(disk.kept.map(\.delivery.recipient).count, 3)
        expectEqual(disk.kept.map(\.delivery.channel), ["page", "voice", "page"], "the older ones first, then the new one")
        #expect(disk.kept.allSatisfy { $0.alertId == sos })

        // Nothing new: no write at all.
        await recorder.flush()
        expectEqual(disk.writes, 2)
    }

    /// A hub stopping (a restart, an upgrade) is not held by the recorder's
    /// wait for its next round: it keeps what was delivered and ends at once.
    @Test(.timeLimit(.minutes(1))) func aStoppingHubIsNotHeldByTheNextRound() async throws {
        let board = DeliveryBoard()
        let disk = BusyDisk(failures: 0)
        var recorder = DeliveryRecorder(store: disk, board: board, logger: Logger(label: "test"))
        recorder.interval = .seconds(3600)
        let group = ServiceGroup(configuration: .init(services: [recorder], logger: Logger(label: "test")))
        async let running: Void = group.run()
        try await Task.sleep(for: .milliseconds(200))  // into its wait
        board.record(.init(channel: .voice, recipient: "speaker", recipientName: "the hub", messageId: "v1", alertId: UUID.random(),
                           at: Date(millisecondsSince1970: 1_800_000_000_000)))
        let stopping = ContinuousClock.now
        await group.triggerGracefulShutdown()
        try await running
        #expect(ContinuousClock.now - stopping < .seconds(30), "it waited for its round")
        expectEqual(disk.kept.map(\.delivery.recipient), ["speaker"], "what was delivered is kept as it stops")
    }

    @Test func aDiskThatStaysBusyHoldsNoMoreThanTheBoardsBound() async throws {
        let board = DeliveryBoard()
        let disk = BusyDisk(failures: .max)
        let recorder = DeliveryRecorder(store: disk, board: board, logger: Logger(label: "test"))
        let at = Date(millisecondsSince1970: 1_800_000_000_000)
        for round in 0..<3 {
            for index in 0..<DeliveryBoard.capacity {
                board.record(.init(channel: .voice, recipient: "speaker", recipientName: "the hub", messageId: "\(round)-\(index)",
                                   alertId: UUID.random(), at: at))
            }
            await recorder.flush()
        }
        expectEqual(board.takeUnrecorded().count, DeliveryBoard.capacity)
    }
}
