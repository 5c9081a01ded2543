import Foundation
import HearthCore

/// Where alerts went and when: each message an alert app's stream wrote or
/// a poll fetched, each line the hub spoke. The alert history and the Test
/// button read it per alert or message; health reads each channel's last.
public final class DeliveryBoard: Sendable {
    public enum Channel: String, Sendable, Codable, CaseIterable {
        /// An alert app's open stream (or a poll) on a phone.
        case alertApp = "alert-app"
        /// The hub's own speaker.
        case voice
    }

    public struct Delivery: Sendable, Equatable {
        public var channel: Channel
        /// The app's name ("Anna's phone") or the speaker.
        public var recipient: String
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
        }
    }

    func delivered(_ event: NtfyEvent, to reader: AlertReader, polled: Bool) {
        guard event.kind == .message || event.kind == .clear else { return }
        record(Delivery(channel: .alertApp, recipient: reader.app.app.name + (polled ? " (poll)" : ""), messageId: event.id,
                        alertId: event.sequenceId.flatMap(UUID.init(text:)), at: now()))
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
}
