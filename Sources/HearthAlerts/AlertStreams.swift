import Foundation
import HearthCore
import HearthStore
import Logging

/// Why an alert app's stream was not opened.
public enum AlertStreamRefusal: Error, Sendable, Equatable {
    /// This credential already holds the most streams one phone needs.
    case tooManyStreams(limit: Int)
}

/// Every open alert-app stream, and how each is fed: replayed from the
/// change log (the hub's alerts are the message cache), then live, with a
/// keepalive now and then. Each stream has its own bounded outbox; one
/// that falls behind is closed (the app reconnects with its last id), so
/// a slow or vanished phone never holds up another, the reminder service
/// or a write.
public final class AlertStreams: Sendable {
    /// More than a phone needs (the app opens one connection for all of a
    /// server's topics); past it a misbehaving client is refused.
    public static let maximumPerCredential = 8

    let store: HearthStore
    let keepalive: Duration
    let outboxLimit: Int
    let logger: Logger
    public let deliveries: DeliveryBoard

    struct OpenStream {
        let appId: UUID
        let personId: UUID
        let appName: String
        /// The first topic, which a test goes out under.
        let topic: String
        /// All of them, as the `open` event and keepalives name them.
        let topicList: String
        let outbox: AsyncStream<NtfyEvent>.Continuation
        /// Drops the phone's connection: a write to a phone that stopped
        /// reading may wait for good, and only this frees it.
        let abort: @Sendable () -> Void
    }
    private let streams = Locked([UUID: OpenStream]())
    /// One timer for every stream's keepalive, rather than a task each.
    private let keepaliveTimer = Locked<Task<Void, Never>?>(nil)

    public init(store: HearthStore, keepalive: Duration = .seconds(45), outboxLimit: Int = 256,
                deliveries: DeliveryBoard = DeliveryBoard(), logger: Logger = Logger(label: "hearth.alerts")) {
        self.store = store
        self.keepalive = keepalive
        self.outboxLimit = outboxLimit
        self.deliveries = deliveries
        self.logger = logger
        let interval = keepalive
        keepaliveTimer.withLock { timer in
            timer = Task { [weak self] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: interval)
                    guard let self else { return }
                    self.sendKeepalives()
                }
            }
        }
    }

    deinit {
        keepaliveTimer.withLock { $0?.cancel() }
    }

    /// How many streams are open now.
    public var openCount: Int { streams.withLock { $0.count } }

    /// Whether this credential may open another stream of these topics
    /// (one of the same topics would replace its older one, as `open` does).
    public func hasRoom(for reader: AlertReader) -> Bool {
        streams.withLock { streams in
            streams.values.count { $0.appId == reader.app.app.id && $0.topicList != reader.topicList } < Self.maximumPerCredential
        }
    }

    /// Opens a stream for `reader`: `open`, then what it missed since
    /// `since`, then live alerts and keepalives until the app goes, the
    /// credential is revoked or its person archived, or the hub stops.
    /// `abort` drops the connection under the stream, for a phone that fell
    /// behind (its writes may never finish).
    public func open(_ reader: AlertReader, since: NtfySince, abort: @escaping @Sendable () -> Void = {}) async throws -> AlertStream {
        let id = UUID.random()
        let (events, outbox) = AsyncStream<NtfyEvent>.makeStream(bufferingPolicy: .bufferingOldest(outboxLimit))
        // The app keeps one connection for a server's topics: a new one with
        // the same credential and topics means the old one is dead (a phone
        // that left the Wi-Fi), though no write has failed on it yet. It is
        // dropped, so it neither counts against the limit nor is told alerts
        // it will never show.
        let (registered, superseded) = streams.withLock { streams -> (Bool, [OpenStream]) in
            let stale = streams.filter { $0.value.appId == reader.app.app.id && $0.value.topicList == reader.topicList }
            for key in stale.keys { streams.removeValue(forKey: key) }
            guard streams.values.count(where: { $0.appId == reader.app.app.id }) < Self.maximumPerCredential else {
                return (false, Array(stale.values))
            }
            streams[id] = OpenStream(appId: reader.app.app.id, personId: reader.app.person.id, appName: reader.app.app.name,
                                     topic: reader.topics[0].rawValue, topicList: reader.topicList, outbox: outbox, abort: abort)
            return (true, Array(stale.values))
        }
        for stream in superseded {
            stream.abort()
            stream.outbox.finish()
        }
        guard registered else { throw AlertStreamRefusal.tooManyStreams(limit: Self.maximumPerCredential) }
        do {
            let subscription = try await store.subscribe(after: try await cursor(for: since)) { reader.mayConcern($0) }
            let now = store.currentTime()
            outbox.yield(NtfyEvent(id: NtfyMessageID.of(seq: subscription.latestAtStart, at: now), time: now, kind: .open,
                                   topic: reader.topicList))
            let feeding = Task { await feed(outbox, from: subscription, to: reader, abort: abort) }
            outbox.onTermination = { [weak self] _ in
                subscription.cancel()
                feeding.cancel()
                _ = self?.streams.withLock { $0.removeValue(forKey: id) }
            }
        } catch {
            _ = streams.withLock { $0.removeValue(forKey: id) }
            outbox.finish()
            throw error
        }
        return AlertStream(events: events, reader: reader, board: deliveries)
    }

    /// What `reader` missed since `since`, without staying open (`poll=1`).
    public func poll(_ reader: AlertReader, since: NtfySince) async throws -> [NtfyEvent] {
        var cursor = try await cursor(for: since)
        let latest = try await store.latestSeq()
        var wording = AlertWording(try await store.household())
        var events: [NtfyEvent] = []
        while cursor < latest {
            let page = try await store.changes(after: cursor, limit: 256)
            guard let last = page.last else { break }
            for change in page where change.seq <= latest && reader.listensTo(change) {
                if change.entity == .household { wording = AlertWording(try await store.household()) }
                if let event = reader.event(for: change, wording: wording), !(try await isHandled(event, of: change)) { events.append(event) }
            }
            cursor = last.seq
        }
        for event in events { deliveries.delivered(event, to: reader, polled: true) }
        return events
    }

    /// Whether a message replayed from the log is of an alert closed since:
    /// the phone would ring for what was already taken care of. Its clear
    /// still goes, for a phone that showed it before it went away, and so
    /// does the message that closed it (an SOS cancelled: all is well),
    /// which replaces what the phone showed.
    func isHandled(_ event: NtfyEvent, of change: Change) async throws -> Bool {
        guard event.kind == .message, CareAlert(json: change.payload)?.isOpen ?? false,
              let id = event.sequenceId.flatMap(UUID.init(text:)),
              let alert = try await store.alert(id: id) else { return false }
        return !alert.isOpen
    }

    /// Sends a test message to each open stream of this person; returns the
    /// names of the apps it was handed to, and the message's id.
    public func sendTest(to person: Person) async throws -> (id: String, apps: [String]) {
        let wording = AlertWording(try await store.household())
        let id = NtfyMessageID.test(after: store.hub.lastPublished)
        let targets = streams.withLock { $0.values.filter { $0.personId == person.id } }
        var reached: [String] = []
        for target in targets {
            var event = NtfyEvent(id: id, time: store.currentTime(), kind: .message, topic: target.topic)
            event.title = wording.testTitle
            event.message = wording.testMessage(for: person.name)
            event.priority = 3
            event.tags = ["white_check_mark"]
            if case .enqueued = target.outbox.yield(event), !reached.contains(target.appName) { reached.append(target.appName) }
        }
        return (id, reached)
    }

    /// Where in the change log a stream starts for `since`: never further
    /// back than a day (`NtfySince.kept`), whatever the app asks for.
    func cursor(for since: NtfySince) async throws -> Int64 {
        let lastDay = store.currentTime().addingTimeInterval(-NtfySince.kept)
        let asked: Int64
        switch since {
        case .none: return try await store.latestSeq()
        case .all: asked = 0
        case .time(let moment): asked = try await store.replayCursor(since: moment)
        case .after(let seq, let written):
            if let cursor = try await store.replayCursor(after: seq, writtenAt: written) {
                asked = cursor
            } else {
                // The log cannot place it (compacted away, or a restore
                // counted up again): by the time the message was written,
                // else the whole day.
                asked = try await store.replayCursor(since: written ?? lastDay)
            }
        }
        return max(asked, try await store.replayCursor(since: lastDay))
    }

    private func feed(_ outbox: AsyncStream<NtfyEvent>.Continuation, from subscription: ChangeSubscription, to first: AlertReader,
                      abort: @Sendable () -> Void) async {
        var reader = first
        do {
            var wording = AlertWording(try await store.household())
            for try await change in subscription {
                let replayed = change.seq <= subscription.latestAtStart
                // Only what changed since the stream opened: a care link or a
                // rename replayed from before it says nothing about the reader now.
                if !replayed, reader.changesIdentity(change) {
                    // Read as who they are now, on the same connection: the
                    // app reconnects late after a WebSocket the hub closed.
                    guard let now = try await store.alertApp(id: reader.app.app.id) else {
                        logger.info("alert stream's credential ended", metadata: ["event": "alerts.end", "app": "\(reader.app.app.id.text)"])
                        break
                    }
                    reader = reader.reading(as: now)
                    continue
                }
                guard reader.listensTo(change) else { continue }
                if change.entity == .household { wording = AlertWording(try await store.household()) }
                guard let event = reader.event(for: change, wording: wording) else { continue }
                if replayed, try await isHandled(event, of: change) { continue }
                if case .dropped = outbox.yield(event) {
                    logger.info("alert stream fell behind", metadata: ["event": "alerts.resync", "app": "\(reader.app.app.id.text)"])
                    abort()
                    break
                }
            }
        } catch {
            // Fell behind the change log, or the hub is stopping: the app reconnects with its last id.
            logger.info("alert stream ended", metadata: ["event": "alerts.end", "reason": "\(error)"])
        }
        outbox.finish()
    }

    /// A keepalive to every open stream (ntfy's server sends one about every
    /// 45 s, so the app and any NAT on the way keep the connection); one
    /// whose outbox is full has fallen behind and is dropped.
    func sendKeepalives() {
        let open = streams.withLock { Array($0.values) }
        let time = store.currentTime()
        let id = NtfyMessageID.of(seq: store.hub.lastPublished, at: time)
        for stream in open {
            if case .dropped = stream.outbox.yield(NtfyEvent(id: id, time: time, kind: .keepalive, topic: stream.topicList)) {
                stream.abort()
                stream.outbox.finish()
            }
        }
    }
}

/// An open stream's events, in order; ends when the stream closes.
public struct AlertStream: AsyncSequence, Sendable {
    public typealias Element = NtfyEvent
    let events: AsyncStream<NtfyEvent>
    let reader: AlertReader
    let board: DeliveryBoard

    public func makeAsyncIterator() -> AsyncStream<NtfyEvent>.Iterator { events.makeAsyncIterator() }

    /// Tells the board a message reached the phone's connection (was written to it).
    public func written(_ event: NtfyEvent) {
        board.delivered(event, to: reader, polled: false)
    }
}
