import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1
import ServiceLifecycle

/// What one household device may hold of a listener, before Hummingbird
/// reads a byte of its request.
public struct ConnectionLimits: Sendable {
    /// Connections one address may hold open at once; nil for no cap. A
    /// browser opens six for a page and one socket for each open note and
    /// the live stream; a household's devices never come near 64.
    public var perAddress: Int?
    /// How long a new connection has to send its first request's head.
    /// Hummingbird's idle timeout only starts once that head is read, so a
    /// client sending a byte now and then would otherwise hold the
    /// connection (and a file descriptor of the service's 4096) for ever.
    public var firstRequestWithin: TimeAmount

    public init(perAddress: Int? = 64, firstRequestWithin: TimeAmount = .seconds(10)) {
        self.perAddress = perAddress
        self.firstRequestWithin = firstRequestWithin
    }

    public static let household = ConnectionLimits()
}

extension HTTPServerBuilder {
    /// HTTP/1.1 with WebSocket upgrades, as Hummingbird's own
    /// `http1WebSocketUpgrade`, with `limits` kept on every connection.
    static func guardedHTTP1WebSocketUpgrade<WebSocketRouter: HTTPResponderBuilder>(
        webSocketRouter: WebSocketRouter,
        configuration: HTTP1WebSocketUpgradeChannel.Configuration,
        limits: ConnectionLimits
    ) -> HTTPServerBuilder where WebSocketRouter.Responder.Context: WebSocketRequestContext {
        let webSocketResponder = webSocketRouter.buildResponder()
        let open = OpenConnections()
        return .init { responder in
            GuardedChannel(
                inner: HTTP1WebSocketUpgradeChannel(responder: responder, webSocketResponder: webSocketResponder,
                                                    configuration: configuration),
                limits: limits, open: open)
        }
    }
}

/// A listener's child channel (`inner`) with a household's limits kept
/// before it: one address holds at most `limits.perAddress` connections
/// (the next is answered 429 and closed), a connection that has not
/// sent its first request's head within `limits.firstRequestWithin` is
/// answered 408 and closed, and one whose first head cannot be read is
/// answered 400 (431 when its headers are too large) and closed.
struct GuardedChannel<Inner: ServerChildChannel>: ServerChildChannel {
    enum Value: ServerChildChannelValue {
        /// With the deadline of its first request, told when the hub stops.
        case served(Inner.Value, NIOLoopBound<FirstRequestDeadline>)
        /// Over the address's cap: nothing of `inner` was set up on it.
        case refused(any Channel)

        var channel: any Channel {
            switch self {
            case .served(let value, _): value.channel
            case .refused(let channel): channel
            }
        }
    }

    let inner: Inner
    let limits: ConnectionLimits
    let open: OpenConnections

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        if let cap = limits.perAddress {
            let address = channel.remoteAddress?.ipAddress ?? "unknown"
            guard open.enter(address, limit: cap) else {
                logger.notice("connection refused: too many from one address", metadata: ["address": "\(address)"])
                return channel.eventLoop.makeSucceededFuture(.refused(channel))
            }
            channel.closeFuture.whenComplete { _ in open.leave(address) }
        }
        let within = limits.firstRequestWithin
        // A failed future here would end the listener's accept loop, so only
        // what `inner` itself fails with is passed on.
        return inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            let deadline = FirstRequestDeadline(within: within)
            try pipeline.addHandler(deadline, position: .first)
            let decoder = try pipeline.context(handlerType: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try pipeline.addHandler(FirstRequestHead(deadline: deadline), position: .after(decoder.handler))
            return .served(value, NIOLoopBound(deadline, eventLoop: channel.eventLoop))
        }
    }

    func handle(value: Value, logger: Logger) async {
        switch value {
        case .served(let value, let deadline):
            await withGracefulShutdownHandler {
                await inner.handle(value: value, logger: logger)
            } onGracefulShutdown: {
                deadline.eventLoop.execute { deadline.value.hubStopping() }
            }
        case .refused(let channel):
            let problem = #"{"type":"about:blank","title":"Too many connections","status":429,"detail":"This address holds too many connections to the hub; close some and try again."}"#
            let response = "HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/problem+json\r\n"
                + "Content-Length: \(problem.utf8.count)\r\nRetry-After: 5\r\nConnection: close\r\n\r\n" + problem
            try? await channel.writeAndFlush(channel.allocator.buffer(string: response))
            try? await channel.close()
        }
    }
}
