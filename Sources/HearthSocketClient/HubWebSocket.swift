import HTTPTypes
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
// WebSocketHandler.handle is the frame loop (close handshake, ping replies,
// fragments) HummingbirdWebSocket's server side runs too; it is published to
// clients as SPI, pinned by the package's version.
@_spi(WSInternal) import WSCore

/// A WebSocket client for the hub's sockets: plain `ws://` to an address on
/// the home network, as HearthKit's live listener, the benchmarks and the
/// tests open them.
///
/// It is the upgrade and nothing else (no TLS, no proxies, no extensions): the
/// hub serves no TLS, and a client that brought a TLS stack would compile
/// BoringSSL into every build of the project for nothing.
public enum HubWebSocket {
    /// What a handler is given besides the socket's two directions.
    public struct Context: WebSocketContext {
        public let logger: Logger
    }

    public struct Configuration: Sendable {
        /// The largest frame either side may send; larger ones close the socket.
        public var maxFrameSize: Int
        /// Sent with the upgrade request, e.g. the device's bearer token.
        public var additionalHeaders: HTTPFields
        /// How long a close waits for the other side's close frame.
        public var closeTimeout: Duration
        /// How long the TCP connection may take to open.
        public var connectTimeout: Duration

        public init(maxFrameSize: Int = 1 << 14, additionalHeaders: HTTPFields = [:],
                    closeTimeout: Duration = .seconds(15), connectTimeout: Duration = .seconds(10)) {
            self.maxFrameSize = maxFrameSize
            self.additionalHeaders = additionalHeaders
            self.closeTimeout = closeTimeout
            self.connectTimeout = connectTimeout
        }
    }

    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// Not a `ws://host[:port]/path` address.
        case notAWebSocketAddress(String)
        /// The server answered the upgrade with something other than 101.
        case upgradeRefused(status: Int)

        public var description: String {
            switch self {
            case .notAWebSocketAddress(let url): "not a ws:// address: \(url)"
            case .upgradeRefused(let status): "the WebSocket upgrade was refused with HTTP \(status)"
            }
        }
    }

    /// Opens the socket, runs `handler` on it and returns how it closed (nil
    /// when the connection ended without a close frame).
    /// Throws `Failure.upgradeRefused` when the server answers the upgrade
    /// with an HTTP error, e.g. 401 for a device that is no longer paired.
    @discardableResult
    public static func connect(url: String, configuration: Configuration = .init(), logger: Logger,
                               handler: @escaping WebSocketDataHandler<Context>) async throws -> WebSocketCloseFrame? {
        let address = try SocketAddressParts(url)
        let outcome = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(TimeAmount(configuration.connectTimeout))
            // The server's end of input arrives as an event, held by
            // `EndOfInputDuringUpgrade` until the upgrade has passed on what
            // came before it.
            .channelOption(.allowRemoteHalfClosure, value: true)
            .connect(host: address.host, port: address.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try upgradePipeline(on: channel, to: address, configuration: configuration)
                }
            }
        switch try await outcome.get() {
        case .upgraded(let socket):
            return try await WebSocketHandler.handle(
                type: .client,
                configuration: .init(extensions: [], autoPing: .disabled, closeTimeout: configuration.closeTimeout,
                                     validateUTF8: false, maxFrameSize: configuration.maxFrameSize),
                asyncChannel: socket, context: Context(logger: logger), handler: handler)
        case .refused(let channel, let status):
            try? await channel.close()
            throw Failure.upgradeRefused(status: status)
        }
    }

    enum Outcome: Sendable {
        case upgraded(NIOAsyncChannel<WebSocketFrame, WebSocketFrame>)
        case refused(any Channel, status: Int)
    }

    /// HTTP/1.1 on the connection until the server agrees to upgrade, then
    /// WebSocket frames.
    private static func upgradePipeline(on channel: any Channel, to address: SocketAddressParts,
                                        configuration: Configuration) throws -> EventLoopFuture<Outcome> {
        let upgrader = NIOTypedWebSocketClientUpgrader<Outcome>(maxFrameSize: configuration.maxFrameSize) { channel, _ in
            channel.eventLoop.makeCompletedFuture {
                .upgraded(try NIOAsyncChannel<WebSocketFrame, WebSocketFrame>(wrappingChannelSynchronously: channel))
            }
        }
        var headers = HTTPHeaders([("Host", address.hostHeader)])
        for field in configuration.additionalHeaders {
            headers.add(name: field.name.rawName, value: field.value)
        }
        let request = HTTPRequestHead(version: .http1_1, method: .GET, uri: address.target, headers: headers)
        let status = ResponseStatusRecorder()
        var pipeline = NIOUpgradableHTTPClientPipelineConfiguration(upgradeConfiguration: .init(
            upgradeRequestHead: request, upgraders: [upgrader],
            notUpgradingCompletionHandler: { channel in
                channel.eventLoop.makeCompletedFuture { .refused(channel, status: status.code) }
            }))
        pipeline.leftOverBytesStrategy = .forwardBytes
        let endOfInput = EndOfInputDuringUpgrade()
        try channel.pipeline.syncOperations.addHandlers(endOfInput, status)
        let outcome = try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(configuration: pipeline)
        outcome.whenComplete { _ in endOfInput.upgradeDidSettle() }
        return outcome
    }
}

/// Remembers the status of a refused upgrade's answer, so the error can say it.
/// Sits before the HTTP decoder: it sees the first line's bytes.
private final class ResponseStatusRecorder: ChannelInboundHandler, RemovableChannelHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    // Read and written on the channel's event loop only.
    private(set) var code = 0

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if code == 0 {
            let bytes = unwrapInboundIn(data)
            // "HTTP/1.1 401 Unauthorized": the three digits after the first space.
            if let line = bytes.getString(at: bytes.readerIndex, length: min(bytes.readableBytes, 16)),
               let space = line.firstIndex(of: " ") {
                code = Int(line[line.index(after: space)...].prefix(3)) ?? 0
            }
        }
        context.fireChannelRead(data)
    }
}

/// The parts of a `ws://` address the upgrade needs.
struct SocketAddressParts: Sendable {
    let host: String
    let port: Int
    /// Path and query, as the request line carries them.
    let target: String
    var hostHeader: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port == 80 ? name : "\(name):\(port)"
    }

    init(_ url: String) throws {
        guard url.lowercased().hasPrefix("ws://") else { throw HubWebSocket.Failure.notAWebSocketAddress(url) }
        let rest = url.dropFirst("ws://".count)
        let slash = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        let authority = rest[..<slash]
        target = slash == rest.endIndex ? "/" : (rest[slash] == "?" ? "/" : "") + rest[slash...]
        // "[::1]:4747", "hub.local:4747", "127.0.0.1"
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            host = String(authority[authority.index(after: authority.startIndex)..<close])
            let after = authority[authority.index(after: close)...]
            port = after.hasPrefix(":") ? Int(after.dropFirst()) ?? -1 : 80
        } else if let colon = authority.lastIndex(of: ":") {
            host = String(authority[..<colon])
            port = Int(authority[authority.index(after: colon)...]) ?? -1
        } else {
            host = String(authority)
            port = 80
        }
        guard !host.isEmpty, (1...65535).contains(port) else { throw HubWebSocket.Failure.notAWebSocketAddress(url) }
    }
}
