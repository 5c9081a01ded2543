import Foundation
import HearthCore
import HearthStore
import Hummingbird
import HummingbirdWebSocket
import Logging

/// `WS /api/v1/live?since=SEQ`: a `hello` frame with the newest `seq`, then
/// every change after `since`, then live changes, one JSON text frame each.
/// A listener that falls behind is closed with code 4000 "resync" and should
/// reconnect with the last `seq` it saw.
struct LiveController {
    static let path = "/api/v1/live"
    static let resyncCloseCode: UInt16 = 4000

    let store: HearthStore

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
        router.ws(RouterPath(Self.path)) { request, _ in
            // A refusal here hands the request to the HTTP router, whose
            // route above answers with the problem.
            do {
                _ = try await checkUpgrade(request)
                return .upgrade([:])
            } catch {
                return .dontUpgrade
            }
        } onUpgrade: { inbound, outbound, context in
            let cursor = try await checkUpgrade(context.request)
            let subscription: ChangeSubscription
            do {
                subscription = try await store.subscribe(after: cursor)
            } catch {
                try await outbound.close(.unknown(Self.resyncCloseCode), reason: "resync")
                return
            }
            try await outbound.write(.text(Frame.hello(seq: subscription.latestAtStart).text()))
            let logger = context.logger
            // The writer runs beside the reader: the reader only watches for
            // the client closing, which ends the subscription.
            let writer = Task {
                do {
                    for try await change in subscription {
                        try await outbound.write(.text(Frame.change(change).text()))
                    }
                    try? await outbound.close(.goingAway, reason: "hub stopping")
                } catch ChangeHubError.fellBehind {
                    logger.info("live listener fell behind", metadata: ["event": "live.resync"])
                    try? await outbound.close(.unknown(Self.resyncCloseCode), reason: "resync")
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
