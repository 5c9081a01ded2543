import Foundation
import HearthCore
import HearthStore

/// Every way an alert reaches a person beside an open page: the alert
/// apps' streams and the hub's voice, with where each delivered (open
/// pages included, which the live stream tells the same board). The
/// composition root makes one; the server's routes and health read it.
public struct AlertChannels: Sendable {
    public let streams: AlertStreams
    /// Present only when `speech.enabled`.
    public let voice: HubVoice?
    public let voiceStatus: VoiceStatus
    /// Open pages, for the Test button's message (alerts reach them as changes).
    public let pages: OpenPages
    /// Texts away from home: whether they go, and the last one.
    public let away: AwayStatus

    public init(streams: AlertStreams, voice: HubVoice? = nil, away: AwayStatus = AwayStatus(sms: SMSSettings())) {
        self.streams = streams
        self.away = away
        self.voice = voice
        self.voiceStatus = voice?.status ?? VoiceStatus(enabled: false)
        self.pages = OpenPages(store: streams.store, board: streams.deliveries)
    }

    /// Alert apps only: a hub without a voice (and the router in tests).
    public init(store: HearthStore) {
        self.init(streams: AlertStreams(store: store))
    }

    public var deliveries: DeliveryBoard { streams.deliveries }

    /// Each channel and its last delivery since the hub started, for health.
    public func summary() -> Summary {
        let last = deliveries.lastDelivery()
        return Summary(
            openStreams: streams.openCount,
            alertApps: .init(enabled: true, lastDelivery: last[.alertApp], problem: nil),
            voice: .init(enabled: voiceStatus.enabled, lastDelivery: last[.voice], problem: voiceStatus.problem),
            pages: .init(enabled: true, lastDelivery: last[.page], problem: nil),
            sms: away.summary)
    }

    public struct Summary: Sendable, Encodable, Equatable {
        public struct Channel: Sendable, Encodable, Equatable {
            public var enabled: Bool
            public var lastDelivery: Date?
            /// Why it cannot deliver (espeak-ng missing, no speaker), said once.
            public var problem: String?
        }
        public var openStreams: Int
        public var alertApps: Channel
        public var voice: Channel
        /// Open pages of paired devices (the live stream).
        public var pages: Channel
        /// Texts through the modem, to caregivers away from home and emergency contacts.
        public var sms: AwayStatus.Summary
    }
}
