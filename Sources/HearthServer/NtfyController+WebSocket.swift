import HearthAlerts
import HearthCore
import Hummingbird
import HummingbirdWebSocket

extension NtfyController {
    /// Close codes of `/ntfy/<topics>/ws`, with the reason in words.
    enum CloseCode {
        /// The stream ended on the hub's side (fell behind, the credential
        /// or the person changed): reconnect with the last id.
        static let ended: UInt16 = 4000
        static let invalidSince: UInt16 = 4400
        static let tooManyStreams: UInt16 = 4429
    }

    /// `WS /ntfy/<topics>/ws`: the same events as `/json`, one text message
    /// each. A wrong credential or topic is refused before upgrading (the
    /// HTTP route then answers 401 or 404).
    func addWebSocketRoutes(to router: Router<HearthRequestContext>) {
        router.ws(RouterPath(Self.root + "/{topics}/ws")) { request, context in
            guard (try? Self.topics(in: context)) != nil,
                  (try? await NtfyCredentials.signIn(request, store: store)) != nil else { return .dontUpgrade }
            return .upgrade([:])
        } onUpgrade: { inbound, outbound, context in
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
                events = try await streams.open(reader, since: since)
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
                try? await outbound.close(.unknown(CloseCode.ended), reason: "stream ended; reconnect with since=<last id>")
            }
            defer { writer.cancel() }
            // The app sends nothing; reading is how its close is noticed.
            for try await _ in inbound.messages(maxSize: 4096) {}
        }
    }
}
