import Foundation
import HearthAlerts
import HearthCore
import HearthEditing
import HearthStore
import Hummingbird
import HummingbirdWebSocket
import Logging

/// `WS /api/v1/live?since=SEQ`: a `hello` frame with the newest `seq`, then
/// every change after `since`, then live changes, one JSON text frame each.
///
/// Close codes (the reason text says the same in words):
/// - 4000 "resync": the listener fell behind, or whom the listener's person
///   looks after (or their role) changed; reconnect with the last `seq` seen.
/// - 4401 "revoked": this device was removed from the household; pair again.
/// - 4400 "invalid-cursor": `since` is not a whole number of 0 or more.
/// - 4409 "cursor-ahead": `since` is newer than the log (for example after a
///   restore); reconnect without `since` and reload.
/// A plain GET gets the same failures as problem+json. An upgrade from another
/// site's page, or from an unpaired device, is refused before upgrading (HTTP 400).
struct LiveController {
    static let path = APIPath.link(.live)
    enum CloseCode {
        static let resync: UInt16 = 4000
        static let revoked: UInt16 = 4401
        static let invalidCursor: UInt16 = 4400
        static let cursorAhead: UInt16 = 4409
    }

    let store: HearthStore
    /// Told when an alert's change reaches an open page, for its history.
    var deliveries: DeliveryBoard?
    /// Where this page is known as open while it is, for the Test button's message.
    var pages: OpenPages?

    enum Frame: Encodable {
        case hello(seq: Int64)
        case change(Change)

        enum Keys: String, CodingKey { case type, seq }

        func encode(to encoder: any Encoder) throws {
            switch self {
            case .hello(let seq):
                var container = encoder.container(keyedBy: Keys.self)
                try container.encode("hello", forKey: .type)
                try container.encode(seq, forKey: .seq)
            case .change(let change):
                try change.encode(to: encoder)
                var container = encoder.container(keyedBy: Keys.self)
                try container.encode("change", forKey: .type)
            }
        }

        func text() throws -> String {
            String(decoding: try HearthJSON.encoder().encode(self), as: UTF8.self)
        }
    }

    /// Reads `since`: absent means "from now"; otherwise a non-negative integer.
    static func cursor(in request: Request) throws -> Int64? {
        guard let text = request.uri.queryParameters.get("since") else { return nil }
        guard !text.isEmpty, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber), let value = Int64(text) else {
            throw ProblemError(.badRequest, type: "invalid-cursor",
                               detail: "since must be a whole number of 0 or more, the last seq the client saw")
        }
        return value
    }

    /// Everything that must hold before an upgrade; throws the problem to report if not.
    func checkUpgrade(_ request: Request) async throws -> Int64 {
        guard OriginCheck.isAllowed(request) else {
            throw ProblemError(.forbidden, type: "cross-origin", detail: "WebSocket connections from another site's page are not allowed")
        }
        let latest = try await store.latestSeq()
        let cursor = try Self.cursor(in: request) ?? latest
        if cursor > latest {
            throw HearthError.cursorAhead(requested: cursor, latest: latest)
        }
        return cursor
    }

    /// A plain GET, or an upgrade that was refused, lands here and gets the reason.
    func addHTTPRoutes(to router: Router<HearthRequestContext>) {
        router.get(RouterPath(Self.path)) { request, _ -> Response in
            _ = try await checkUpgrade(request)
            throw ProblemError(.upgradeRequired, type: "upgrade-required",
                               detail: "Connect to this address with a WebSocket")
        }
    }

    func addWebSocketRoutes(to router: Router<HearthRequestContext>) {
        router.ws(RouterPath(Self.path)) { request, context in
            // Refused upgrades fall through to the HTTP route, which explains them.
            guard context.caller.policyActor != nil,
                  OriginCheck.isAllowed(request, cookieAuthenticated: context.authenticatedByCookie)
            else { return .dontUpgrade }
            return .upgrade([:])
        } onUpgrade: { inbound, outbound, context in
            // A bad cursor is told as a close code with a reason: a browser's
            // WebSocket cannot read the HTTP status of a refused upgrade.
            let subscription: ChangeSubscription
            do {
                let requested = try Self.cursor(in: context.request)
                let cursor: Int64 = if let requested { requested } else { try await store.latestSeq() }
                let caller = context.requestContext.caller
                let deviceId = caller.deviceId
                subscription = try await store.subscribe(after: cursor) { change in
                    LiveVisibility.isVisible(change, to: caller) || LiveVisibility.revokes(change, deviceId: deviceId)
                }
            } catch let error as HearthError {
                if case .cursorAhead(_, let latest) = error {
                    try await outbound.close(.unknown(CloseCode.cursorAhead), reason: "cursor-ahead: latest seq is \(latest); reload")
                }
                // Wait for the client's answering close frame: the closing
                // handshake finishes here rather than racing the handler's end.
                for try await _ in inbound {}
                return
            } catch is ProblemError {
                try await outbound.close(.unknown(CloseCode.invalidCursor), reason: "invalid-cursor: since must be a whole number >= 0")
                for try await _ in inbound {}
                return
            }
            try await outbound.write(.text(Frame.hello(seq: subscription.latestAtStart).text()))
            let logger = context.logger
            let caller = context.requestContext.caller
            let page = if let pages, let person = caller.policyActor?.personId, let device = caller.deviceId {
                pages.opened(person: person, device: device) { frame in
                    (try? await outbound.write(.text(frame))) != nil
                }
            } else { UUID?.none }
            defer { if let page { pages?.closed(page) } }
            // The writer runs beside the reader: the reader only watches for
            // the client closing, which ends the subscription.
            let writer = Task {
                do {
                    for try await change in subscription {
                        if LiveVisibility.revokes(change, deviceId: context.requestContext.caller.deviceId) {
                            try? await outbound.close(.unknown(CloseCode.revoked), reason: "revoked: this device was removed; pair it again")
                            return
                        }
                        // Only what changed since the stream opened: a care link or a role
                        // replayed from before it made the listener who they are now.
                        if change.seq > subscription.latestAtStart, LiveVisibility.changesCircle(change, of: context.requestContext.caller) {
                            logger.info("live listener's care circle changed", metadata: ["event": "live.resync"])
                            try? await outbound.close(.unknown(CloseCode.resync), reason: "resync: whom you look after changed")
                            return
                        }
                        guard let actor = context.requestContext.caller.policyActor,
                              let sent = try await store.asHeardNow(change, by: actor) else { continue }
                        try await outbound.write(.text(Frame.change(sent).text()))
                        if sent.entity == .alert, let alert = UUID(text: sent.entityId), let device = context.requestContext.caller.deviceId {
                            deliveries?.shown(alert: alert, on: device, change: sent.seq)
                        }
                    }
                    try? await outbound.close(.goingAway, reason: "hub stopping")
                } catch ChangeHubError.fellBehind {
                    logger.info("live listener fell behind", metadata: ["event": "live.resync"])
                    try? await outbound.close(.unknown(CloseCode.resync), reason: "resync")
                } catch {
                    try? await outbound.close(.unexpectedServerError, reason: "hub error")
                }
            }
            defer {
                subscription.cancel()
                writer.cancel()
            }
            // Messages from the client are not part of this protocol; reading
            // them (up to the message limit) is how a close is noticed.
            for try await _ in inbound.messages(maxSize: HearthLimits.webSocketMessage) {}
        }
    }
}
