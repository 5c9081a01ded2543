import Foundation
import HearthCore
import HearthStore
import Logging
import ServiceLifecycle

/// For the iPhones at home: Apple lets the ntfy app be woken only by its
/// own Internet server, so for each alert message on the hub's ntfy topics
/// the hub sends that server a poll request (`PushSender.pollRequest`), as
/// a self-hosted ntfy server with `upstream-base-url` does. The app, woken,
/// fetches the message from the hub over the home Wi-Fi: the Internet
/// server sees a hash of the topic's address and the message's id, never
/// the alert. Runs only with `push.enabled`; best effort, like ntfy's own:
/// a poll request that fails is not repeated (the app also polls by itself).
public struct PollRequests: Service {
    let store: HearthStore
    let sender: PushSender
    /// The hub's ntfy address as the apps were given it (`http://192.168.1.20:8080/ntfy`); nil until the hub listens.
    let hubServer: @Sendable () -> String?
    let logger: Logger

    public init(store: HearthStore, sender: PushSender, hubServer: @escaping @Sendable () -> String?, logger: Logger) {
        self.store = store
        self.sender = sender
        self.hubServer = hubServer
        self.logger = logger
    }

    /// The topics an alert's message appears on, for the poll requests.
    static func topics(of kind: CareAlert.Kind) -> [AlertTopic] {
        AlertTopic.allCases.filter { $0.includes(kind) }
    }

    public func run() async throws {
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            do {
                let subscription = try await store.subscribe(after: try await store.latestSeq()) { $0.entity == .alert }
                for try await change in subscription.cancelOnGracefulShutdown() {
                    guard let alert = CareAlert(json: change.payload), let server = hubServer() else { continue }
                    let id = NtfyMessageID.of(seq: change.seq, at: change.time)
                    for topic in Self.topics(of: alert.kind) {
                        do throws(PushProblem) {
                            try await sender.pollRequest(topicURL: "\(server)/\(topic.rawValue)", messageId: id)
                        } catch {
                            logger.debug("poll request not taken", metadata: ["problem": "\(error)"])
                        }
                    }
                }
                return
            } catch {
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }
}
