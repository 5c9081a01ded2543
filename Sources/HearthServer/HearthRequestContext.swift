import Foundation
import HearthCore
import Hummingbird
import NIOCore
import HummingbirdWebSocket

/// Per-request state: only who is calling. Long-lived things (the store,
/// settings) are given to controllers through their initializers.
public struct HearthRequestContext: RequestContext, WebSocketRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let webSocket: WebSocketHandlerReference<Self>
    /// Set by `CallerMiddleware` before any route runs.
    public var caller: Caller = .unpaired
    /// The token is a device's that waits for an admin's approval: the
    /// caller is unpaired, and is told why.
    public var awaitingApproval = false
    /// True when the caller's token came in the browser cookie, which a
    /// browser attaches on its own: such requests must prove their Origin.
    public var authenticatedByCookie = false
    /// The client's IP address, for rate limits; nil in in-process tests.
    public let remoteAddress: String?
    /// The connection the request came on, for a long-lived answer that
    /// must drop it (an alert app's stream to a phone that stopped reading).
    public let connection: any Channel

    public init(source: Source) {
        self.coreContext = .init(source: source)
        self.webSocket = .init()
        self.remoteAddress = source.channel.remoteAddress?.ipAddress
        self.connection = source.channel
    }

    /// Request bodies are limited to 1 MiB (Docs/architecture.md, limits).
    public var maxUploadSize: Int { HearthLimits.requestBody }

    public var requestDecoder: HearthJSON.RequestDecoder { .init() }
    public var responseEncoder: HearthJSON.ResponseEncoder { .init() }
}

/// Size limits (Docs/architecture.md), in bytes.
public enum HearthLimits {
    public static let requestBody = 1 << 20
    public static let webSocketMessage = 1 << 20
}
