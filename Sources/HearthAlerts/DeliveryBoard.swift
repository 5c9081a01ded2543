import Foundation
import HearthCore
import HearthStore
import Logging
import ServiceLifecycle

/// Where alerts went and when: each message an alert app's stream wrote or
/// a poll fetched, each line the hub spoke, each open page sent an alert.
/// The Test button reads it per message and health each channel's last;
/// `DeliveryRecorder` keeps those about alerts in the database for the
/// alert history, a second's worth at a time.
public final class DeliveryBoard: Sendable {
    public enum Channel: String, Sendable, Codable, CaseIterable {
        /// An alert app's open stream (or a poll) on a phone.
        case alertApp = "alert-app"
        /// The hub's own speaker.
        case voice
        /// An open page (the live stream) on a paired device.
        case page
    }

    public struct Delivery: Sendable, Equatable {
        public var channel: Channel
        /// Who, as the database names it: `alert-app:<id>`, `device:<id>`, `speaker`.
        public var recipient: String
        /// Who, in words: "Anna's phone".
        public var recipientName: String
        public var messageId: String
        /// The alert it was about; nil for a test.
        public var alertId: UUID?
        public var at: Date
    }

    /// What is remembered: far more than a household's alerts of a week.
    static let capacity = 2000

    private struct State {
        var recent: [Delivery] = []
        var last: [Channel: Date] = [:]
        /// Deliveries about alerts not yet in the database.
        var unrecorded: [Delivery] = []
    }
    private let state = Locked(State())
    let now: @Sendable () -> Date

    public init(now: @escaping @Sendable () -> Date = Date.init) {
        self.now = now
    }

    public func record(_ delivery: Delivery) {
        state.withLock { state in
            if state.recent.count >= Self.capacity { state.recent.removeFirst(state.recent.count - Self.capacity + 1) }
            state.recent.append(delivery)
            state.last[delivery.channel] = delivery.at
            // A bound a stalled database cannot push past: what overflows is lost, never waited for.
            if delivery.alertId != nil, state.unrecorded.count < Self.capacity { state.unrecorded.append(delivery) }
        }
    }

    func delivered(_ event: NtfyEvent, to reader: AlertReader, polled: Bool) {
        guard event.kind == .message || event.kind == .clear else { return }
        record(Delivery(channel: .alertApp, recipient: "alert-app:\(reader.app.app.id.text)",
                        recipientName: reader.app.app.name + (polled ? " (poll)" : ""), messageId: event.id,
                        alertId: event.sequenceId.flatMap(UUID.init(text:)), at: now()))
    }

    /// An open page on `device` was sent a change to this alert.
    public func shown(alert: UUID, on device: UUID, change seq: Int64) {
        record(Delivery(channel: .page, recipient: "device:\(device.text)", recipientName: "device", messageId: "h\(seq)",
                        alertId: alert, at: now()))
    }

    /// Where this alert's messages went, oldest first.
    public func deliveries(ofAlert id: UUID) -> [Delivery] {
        state.withLock { $0.recent.filter { $0.alertId == id } }
    }

    /// Where one message (a test) went.
    public func deliveries(ofMessage id: String) -> [Delivery] {
        state.withLock { $0.recent.filter { $0.messageId == id } }
    }

    /// Each channel's last delivery since the hub started.
    public func lastDelivery() -> [Channel: Date] {
        state.withLock { $0.last }
    }

    /// The deliveries about alerts not yet kept, handed over once.
    func takeUnrecorded() -> [Delivery] {
        state.withLock { state in
            defer { state.unrecorded.removeAll(keepingCapacity: true) }
            return state.unrecorded
        }
    }

    /// Deliveries the database could not take this time, back at the front
    /// to be kept with the next; within the same bound as `record`'s.
    func keepForLater(_ deliveries: [Delivery]) {
        state.withLock { state in
            state.unrecorded.insert(contentsOf: deliveries.prefix(max(0, Self.capacity - state.unrecorded.count)), at: 0)
        }
    }
}

/// Keeps the board's deliveries in the database every second, in one
/// transaction outside the change log, so recording where fifty phones got
/// an SOS is one write, not fifty, and never sits in a stream's way.
public struct DeliveryRecorder: Service {
    let store: any DeliveryRecords
    let board: DeliveryBoard
    let logger: Logger
    var interval: Duration = .seconds(1)

    public init(store: any DeliveryRecords, board: DeliveryBoard, logger: Logger) {
        self.store = store
        self.board = board
        self.logger = logger
    }

    public func run() async throws {
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            // Woken at once when the hub stops: a plain sleep held every stop
            // (a restart, an upgrade) for up to this second.
            let interval = interval
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            await flush()
        }
        await flush()  // what the last second delivered, before the store closes
    }

    func flush() async {
        let taken = board.takeUnrecorded()
        guard !taken.isEmpty else { return }
        let pending = taken.compactMap { delivery in
            delivery.alertId.map { ($0, AlertDelivery(channel: delivery.channel.rawValue, recipient: delivery.recipient, at: delivery.at)) }
        }
        do {
            try await store.recordDeliveries(pending)
        } catch {
            // A busy or full disk: the history of where an alert went is
            // kept with the next second's, not dropped.
            board.keepForLater(taken)
            logger.warning("could not keep where alerts went yet", metadata: ["error": "\(error)", "deliveries": "\(pending.count)"])
        }
    }
}
