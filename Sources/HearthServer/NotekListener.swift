import Foundation
import HearthStore
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore

/// The Notek listener: existing Notek clients (terminal, Android, Neovim,
/// iOS) edit the household's shared notes over Notek's binary protocol,
/// by default on port 9001. Off unless `notek.enabled` is set: the
/// protocol has no authentication, so any device on the LAN can then read
/// and edit shared notes (private notes are never visible to it).
///
/// Close codes (the reason says the same in words):
/// - 1002 "protocol error": a frame Notek does not have, a malformed one,
///   or a message of another kind of connection; the note is untouched;
/// - 1007 "invalid": a name or character the hub does not keep (a name over
///   200 characters, a NUL);
/// - 1009 "too large": a message over 1 MiB, or a note that would hold
///   more than 1 MiB of text;
/// - 4404 "not found": no shared note has that id (it is private, in Trash
///   or unknown);
/// - 1013: the note was closed meanwhile; reconnect;
/// - 1011: the hub could not store; reconnect;
/// - 1001: the hub is stopping.
public enum NotekListener {
    public typealias App = Application<RouterResponder<BasicRequestContext>>

    enum CloseCode {
        static let protocolError: UInt16 = 1002
        static let invalid: UInt16 = 1007
        static let tooLarge: UInt16 = 1009
        static let notFound: UInt16 = 4404
        static let tryAgain: UInt16 = 1013
        static let hubError: UInt16 = 1011
    }

    /// The notes Notek clients have open; the app closes them when stopping.
    public final class OpenNotes: Sendable {
        let bridges: NotekBridges

        public init(store: HearthStore, noteSessions: NoteSessions, logger: Logger) {
            bridges = NotekBridges(store: store, sessions: noteSessions, logger: logger)
        }

        public func closeAll() async { await bridges.closeAll() }
    }

    public static func application(
        store: HearthStore, openNotes: OpenNotes, host: String, port: Int, logger: Logger,
        onServerRunning: @escaping @Sendable (_ port: Int) async -> Void = { _ in }
    ) -> App {
        let http = Router(context: BasicRequestContext.self)
        http.get("**") { _, _ -> Response in
            Response(status: .upgradeRequired, headers: [.contentType: "text/plain; charset=utf-8"],
                     body: .init(byteBuffer: ByteBuffer(string: "This is Hearth's Notek endpoint: connect with a Notek client.\n")))
        }
        let webSocket = Router(context: BasicWebSocketRequestContext.self)
        for path in ["/", "**"] {
            webSocket.ws(RouterPath(path)) { _, _ in
                .upgrade([:])
            } onUpgrade: { inbound, outbound, context in
                let peer = context.request.headers[.userAgent] ?? "a Notek client"
                await NotekConnection(bridges: openNotes.bridges, store: store, logger: context.logger, peer: peer)
                    .run(inbound: inbound, outbound: outbound)
            }
        }
        return Application(
            router: http,
            server: .http1WebSocketUpgrade(
                webSocketRouter: webSocket,
                configuration: .init(
                    http1: .init(idleTimeout: .seconds(120)),
                    ws: .init(maxFrameSize: HearthLimits.webSocketMessage, autoPing: .enabled(timePeriod: .seconds(30)))
                )
            ),
            configuration: .init(address: .hostname(host, port: port), serverName: "Hearth Notek"),
            onServerRunning: { channel in
                await onServerRunning(channel.localAddress?.port ?? port)
            },
            logger: logger
        )
    }
}
