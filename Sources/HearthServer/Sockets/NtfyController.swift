import Foundation
import HearthAlerts
import HearthCore
import HearthStore
import Hummingbird
import NIOCore

/// The hub speaks ntfy's subscribe protocol (docs.ntfy.sh, "Subscribe via
/// API"; Docs/reference: ../shared/reference/ntfy-subscribe.md), so the
/// ntfy app on a caregiver's Android phone keeps its own connection to the
/// hub and rings for an SOS with no Internet. Its server URL is
/// `http://<hub>:<port>/ntfy`:
/// - `GET /ntfy/<topics>/json` (a JSON line per event), `/sse` (server-sent
///   events) and `/ws` (NtfyController+WebSocket); `?poll=1` answers what
///   was missed and closes; `since=none|all|<id>|<unix seconds>`;
/// - `GET /ntfy/<topic>/auth`: whether the credential may read it;
/// - `POST /ntfy/actions/…`: a notification's button (AlertActionLink).
/// What a person hears is what the live stream lets them hear.
struct NtfyController {
    static let root = "/ntfy"

    let store: HearthStore
    let streams: AlertStreams

    func addRoutes(to router: Router<HearthRequestContext>) {
        let ntfy = router.group(RouterPath(Self.root))
        ntfy.get("{topics}/json") { request, context in
            try await answer(request, context) { reader, since in
                try await stream(reader, since: since, on: context.connection, contentType: "application/x-ndjson; charset=utf-8") { event in
                    event.line() + [UInt8(ascii: "\n")]
                }
            }
        }
        ntfy.get("{topics}/sse") { request, context in
            try await answer(request, context) { reader, since in
                try await stream(reader, since: since, on: context.connection, contentType: "text/event-stream; charset=utf-8",
                                 encode: Self.serverSentEvent)
            }
        }
        ntfy.get("{topics}/ws") { request, context in
            // An upgrade that reached here was refused; say why (a wrong
            // credential, topic or `since` is answered by `answer`).
            try await answer(request, context) { reader, _ in
                guard streams.hasRoom(for: reader) else { throw AlertStreamRefusal.tooManyStreams(limit: AlertStreams.maximumPerCredential) }
                throw ProblemError(.upgradeRequired, type: "upgrade-required", detail: "Connect to this address with a WebSocket")
            }
        }
        ntfy.get("{topics}/auth") { request, context in
            do {
                _ = try await NtfyCredentials.signIn(request, store: store)
                _ = try NtfyController.topics(in: context, single: true)
                return Response(status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                                body: .init(byteBuffer: ByteBuffer(string: #"{"success":true}"#)))
            } catch let problem as NtfyProblem {
                return problem.response()
            }
        }
        ntfy.post("actions/{alert}/{answer}/{capability}") { _, context -> JSONValue in
            try await act(context)
        }
    }

    /// Signs in, reads the topics and `since`, and runs `body`; the
    /// endpoint's failures become their problem+json answers.
    func answer(_ request: Request, _ context: HearthRequestContext,
                _ body: (AlertReader, NtfySince) async throws -> Response) async throws -> Response {
        do {
            let app = try await NtfyCredentials.signIn(request, store: store)
            let reader = AlertReader(app: app, topics: try Self.topics(in: context), origin: Self.origin(of: request))
            let poll = ["1", "true", "yes"].contains(request.uri.queryParameters.get("poll") ?? "")
            // ntfy's own defaults: a poll with no `since` asks for everything, a stream for nothing old.
            let sinceText = request.uri.queryParameters.get("since") ?? (poll ? "all" : "none")
            guard let since = NtfySince.parse(sinceText) else { throw NtfyProblem.badSince }
            if poll { return try await polled(reader, since: since) }
            return try await body(reader, since)
        } catch let problem as NtfyProblem {
            return problem.response()
        } catch AlertStreamRefusal.tooManyStreams(let limit) {
            return NtfyProblem.tooManyStreams(limit: limit).response()
        }
    }

    func polled(_ reader: AlertReader, since: NtfySince) async throws -> Response {
        let events = try await streams.poll(reader, since: since)
        var body: [UInt8] = []
        for event in events { body += event.line() + [UInt8(ascii: "\n")] }
        return Response(status: .ok, headers: [.contentType: "application/x-ndjson; charset=utf-8", .cacheControl: "no-store"],
                        body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// A long-lived answer: each event as `encode` writes it, until the
    /// stream ends (the app then reconnects at once) or the phone goes (the
    /// next write fails). A phone that fell behind has its connection
    /// dropped: a write to it may wait for good.
    func stream(_ reader: AlertReader, since: NtfySince, on connection: any Channel, contentType: String,
                encode: @escaping @Sendable (NtfyEvent) -> [UInt8]) async throws -> Response {
        Self.limitStalling(of: connection)
        let events = try await streams.open(reader, since: since) { connection.close(promise: nil) }
        return Response(status: .ok, headers: [.contentType: contentType, .cacheControl: "no-store"], body: ResponseBody { writer in
            for await event in events {
                try await writer.write(ByteBuffer(bytes: encode(event)))
                events.written(event)
            }
            try await writer.finish(nil)
        })
    }

    /// What the kernel holds for a phone that stopped reading: alert lines
    /// are small, and an unbounded (self-tuning) buffer would take megabytes
    /// before the stream's own outbox ever filled and the phone was dropped.
    static let sendBuffer = 64 * 1024

    /// How long what was sent to a phone may stay unacknowledged before the
    /// kernel gives the connection up: a phone gone off the Wi-Fi is noticed
    /// at the next keepalive or alert, not after TCP's quarter of an hour of
    /// retries; the app reconnects with its last id when it is back.
    static let unacknowledgedLimit = Duration.seconds(90)

    static func limitStalling(of connection: any Channel) {
        connection.setOption(ChannelOptions.socketOption(.so_sndbuf), value: SocketOptionValue(sendBuffer)).whenComplete { _ in }
        #if os(Linux)
        let milliseconds = SocketOptionValue(unacknowledgedLimit.components.seconds * 1000)
        connection.setOption(ChannelOptions.tcpOption(NIOBSDSocket.Option(rawValue: CInt(TCP_USER_TIMEOUT))), value: milliseconds)
            .whenComplete { _ in }
        #endif
    }

    /// ntfy's server-sent events: the event's name for all but messages, and the JSON as data.
    static func serverSentEvent(_ event: NtfyEvent) -> [UInt8] {
        let name = event.kind == .message ? "" : "event: \(event.kind.rawValue)\n"
        return Array(name.utf8) + Array("data: ".utf8) + event.line() + Array("\n\n".utf8)
    }

    /// A button pressed on a notification: acknowledges or answers its one
    /// alert as the credential's person, if the link is one the credential
    /// signed. Anything else is unknown (404), whatever was wrong with it.
    func act(_ context: HearthRequestContext) async throws -> JSONValue {
        guard let link = AlertActionLink(alertId: context.parameters.get("alert") ?? "", answer: context.parameters.get("answer") ?? "",
                                         capability: context.parameters.get("capability") ?? ""),
              let app = try await store.alertApp(id: link.appId), link.isSigned(by: app)
        else { throw HearthError.notFound(what: "That alert") }
        let by = "alert-app:\(app.app.id.text)"
        switch link.answer {
        case .acknowledge: return try await store.acknowledgeAlert(id: link.alertId, as: app.actor, by: by).json
        case .respond: return try await store.respondToAlert(id: link.alertId, as: app.actor, by: by).json
        }
    }

    static func topics(in context: HearthRequestContext, single: Bool = false) throws -> [AlertTopic] {
        let text = context.parameters.get("topics") ?? ""
        guard let topics = AlertTopic.list(text), !single || topics.count == 1 else { throw NtfyProblem.unknownTopic }
        return topics
    }

    /// Where the phone reached the hub, for the links in its messages.
    static func origin(of request: Request) -> String {
        "http://" + (request.head.authority ?? "localhost")
    }
}
