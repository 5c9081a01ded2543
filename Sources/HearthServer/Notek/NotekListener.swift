import Foundation
import HearthCore
import HearthEditing
import HearthStore
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import ServiceLifecycle

/// The Notek listener: existing Notek clients (terminal, Android, Neovim,
/// iOS) edit the household's shared notes over Notek's binary protocol,
/// by default on port 9001. Off unless `notek.enabled` is set: the
/// protocol has no authentication, so while it is on any device that
/// reaches the port can, with no token:
/// - list the shared notes and read their names and text;
/// - type into, rename and move to Trash any shared note;
/// - create shared notes (owned by the household's first admin), at most
///   `notesPerConnection` on one connection.
/// It can never see or touch a private note, a note shared with a care
/// circle or for reading only, a note in Trash, medications, doses, people
/// or devices, and a note made so or moved to Trash is closed to it at once. A web page cannot reach it: an upgrade whose
/// `Origin` is a page's (`http:`, `https:` or `null`, which every browser
/// sends) is refused; Notek clients send none, or their own `ws:` URL. One
/// address holds at most `connectionsPerAddress` connections. It listens
/// on `notek.host`, which defaults to the HTTP server's address.
///
/// Close codes (the reason says the same in words):
/// - 1002 "protocol error": a frame Notek does not have, a malformed one,
///   or a message of another kind of connection; the note is untouched;
/// - 1007 "invalid": a name or character the hub does not keep (a name over
///   200 characters, a NUL);
/// - 1009 "too large": a message over 1 MiB, or a note that would hold
///   more than 1 MiB of text;
/// - 4404 "not found": no shared note has that id (it is private, shared
///   with a circle or for reading only, in Trash, or unknown);
/// - 4429 "too many": more than `notesPerConnection` notes created on one
///   connection, or more than `connectionsPerAddress` connections open
///   from one address;
/// - 1013: the note was closed meanwhile; reconnect;
/// - 1011: the hub could not store; reconnect;
/// - 1001: the hub is stopping.
public enum NotekListener {
    public typealias App = Application<RouterResponder<NotekRequestContext>>

    typealias CloseCode = NotekCloseCode

    /// Connections one address may hold open: a household's few Notek
    /// clients, not a flood.
    static let connectionsPerAddress = 8
    /// Notes one connection may create: a client syncing its offline notes
    /// makes a few, not thousands.
    static let notesPerConnection = 20

    /// The notes Notek clients have open. A service of the hub's group,
    /// listed after the Notek listener so it is told to stop first: the
    /// clients' connections end, so the listener's graceful shutdown is not
    /// held open by clients that would otherwise edit on.
    public final class OpenNotes: Service, Sendable {
        let bridges: NotekBridges

        public init(store: HearthStore, noteSessions: NoteSessions, logger: Logger) {
            bridges = NotekBridges(store: store, sessions: noteSessions, logger: logger)
        }

        public func closeAll() async { await bridges.closeAll() }

        public func run() async throws {
            try? await gracefulShutdown()
            await closeAll()
        }
    }

    /// A browser names the page a WebSocket comes from (`http://…`,
    /// `https://…`, or `null` for a file or sandboxed page); a native client
    /// sends nothing or its own `ws://` address.
    static func isFromAWebPage(_ request: Request) -> Bool {
        guard let origin = request.headers[.origin]?.lowercased() else { return false }
        return origin == "null" || origin.hasPrefix("http:") || origin.hasPrefix("https:")
    }

    public static func application(
        store: HearthStore, openNotes: OpenNotes, host: String, port: Int, logger: Logger,
        onServerRunning: @escaping @Sendable (_ port: Int) async -> Void = { _ in }
    ) -> App {
        let http = Router(context: NotekRequestContext.self)
        // A refused upgrade, or a plain request, is answered here.
        for path in ["/", "**"] {
            http.get(RouterPath(path)) { request, _ -> Response in
                if isFromAWebPage(request) {
                    return Response(status: .forbidden, headers: [.contentType: "text/plain; charset=utf-8"],
                                    body: .init(byteBuffer: ByteBuffer(string: "Notek connections from a web page are refused.\n")))
                }
                return Response(status: .upgradeRequired, headers: [.contentType: "text/plain; charset=utf-8"],
                                body: .init(byteBuffer: ByteBuffer(string: "This is Hearth's Notek endpoint: connect with a Notek client.\n")))
            }
        }
        let webSocket = Router(context: NotekRequestContext.self)
        let open = OpenConnections()
        for path in ["/", "**"] {
            webSocket.ws(RouterPath(path)) { request, _ in
                // Without this, any http:// page open in the household could
                // read and rewrite the shared notes.
                isFromAWebPage(request) ? .dontUpgrade : .upgrade([:])
            } onUpgrade: { inbound, outbound, context in
                let address = context.requestContext.remoteAddress ?? "unknown"
                guard open.enter(address, limit: connectionsPerAddress) else {
                    try? await outbound.close(.unknown(CloseCode.tooMany),
                                              reason: "too many: at most \(connectionsPerAddress) Notek connections from one address")
                    for try await _ in inbound {}
                    return
                }
                defer { open.leave(address) }
                let peer = context.request.headers[.userAgent] ?? "a Notek client"
                await NotekConnection(bridges: openNotes.bridges, store: store, logger: context.logger, peer: peer)
                    .run(inbound: inbound, outbound: outbound)
            }
        }
        return Application(
            router: http,
            // Its own cap per address closes a WebSocket with 4429, which a
            // Notek client shows; the first request's deadline is the hub's.
            server: .guardedHTTP1WebSocketUpgrade(
                webSocketRouter: webSocket,
                configuration: .init(
                    http1: .init(idleTimeout: .seconds(120)),
                    ws: .init(maxFrameSize: HearthLimits.webSocketMessage, autoPing: .enabled(timePeriod: .seconds(30)))
                ),
                limits: .init(perAddress: nil)
            ),
            configuration: .init(address: .hostname(host, port: port), serverName: "Hearth Notek"),
            onServerRunning: { channel in
                await onServerRunning(channel.localAddress?.port ?? port)
            },
            logger: logger
        )
    }
}

/// Per-connection state of the Notek listener: where the client is, for the
/// per-address limit.
public struct NotekRequestContext: RequestContext, WebSocketRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let webSocket: WebSocketHandlerReference<Self>
    public let remoteAddress: String?

    public init(source: Source) {
        coreContext = .init(source: source)
        webSocket = .init()
        remoteAddress = source.channel.remoteAddress?.ipAddress
    }
}
