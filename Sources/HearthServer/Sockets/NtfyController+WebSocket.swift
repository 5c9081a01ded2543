import HearthAlerts
import HearthCore
import Hummingbird
import HummingbirdWebSocket
import NIOCore

extension NtfyController {
    /// Close codes of `/ntfy/<topics>/ws`, with the reason in words, for
    /// the rare refusal after upgrading (a race past the checks made before).
    enum CloseCode {
        static let invalidSince: UInt16 = 4400
        static let tooManyStreams: UInt16 = 4429
    }

    /// `WS /ntfy/<topics>/ws`: the same events as `/json`, one text message
    /// each. A wrong credential, topic or `since`, or a credential with all
    /// its streams open, is refused before upgrading (the HTTP route then
    /// answers 401, 404, 400 or 429).
    ///
    /// The hub never ends this stream with a close frame. The ntfy app
    /// reconnects a WebSocket only after a failure; one the server closed
    /// cleanly stays closed until the app's next ping fails, minutes later.
    /// So when the stream ends — the credential revoked, the phone fell
    /// behind, the hub stopping — the connection is dropped, and the app
    /// reconnects within seconds (to a 401, when the credential is gone).
    func addWebSocketRoutes(to router: Router<HearthRequestContext>) {
        router.ws(RouterPath(Self.root + "/{topics}/ws")) { request, context in
            guard let topics = try? Self.topics(in: context),
                  NtfySince.parse(request.uri.queryParameters.get("since") ?? "none") != nil,
                  let app = try? await NtfyCredentials.signIn(request, store: store),
                  streams.hasRoom(for: AlertReader(app: app, topics: topics, origin: Self.origin(of: request)))
            else { return .dontUpgrade }
            return .upgrade([:])
        } onUpgrade: { inbound, outbound, context in
            let connection = context.requestContext.connection
            let events: AlertStream
            do {
                let app = try await NtfyCredentials.signIn(context.request, store: store)
                let reader = AlertReader(app: app, topics: try Self.topics(in: context.requestContext),
                                         origin: Self.origin(of: context.request))
                guard let since = NtfySince.parse(context.request.uri.queryParameters.get("since") ?? "none") else {
                    try await outbound.close(.unknown(CloseCode.invalidSince), reason: "invalid-since")
                    for try await _ in inbound {}
                    return
                }
                Self.limitStalling(of: connection)
                events = try await streams.open(reader, since: since) { connection.close(promise: nil) }
            } catch AlertStreamRefusal.tooManyStreams {
                try await outbound.close(.unknown(CloseCode.tooManyStreams), reason: "too-many-streams")
                for try await _ in inbound {}
                return
            }
            let writer = Task {
                for await event in events {
                    try await outbound.write(.text(String(decoding: event.line(), as: UTF8.self)))
                    events.written(event)
                }
                connection.close(promise: nil)
            }
            defer { writer.cancel() }
            // The app sends nothing; reading is how its close is noticed.
            for try await _ in inbound.messages(maxSize: 4096) {}
        }
    }
}
