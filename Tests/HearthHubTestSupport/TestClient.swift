import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import NIOPosix

/// What the hub answered one request, read to its end.
public struct TestResponse: Sendable {
    public var head: HTTPResponse
    public var body: ByteBuffer
    public var status: HTTPResponse.Status { head.status }
    public var headers: HTTPFields { head.headerFields }
}

/// Something that sends one request and reads its answer: the loopback
/// client itself, or a wrapper that adds a device's credentials.
public protocol TestClientProtocol: Sendable {
    func executeRequest(uri: String, method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer?) async throws -> TestResponse
}

extension TestClientProtocol {
    /// Sends the request and hands its answer to `check`, so a test reads
    /// request and expectations together.
    @discardableResult
    public func execute<Value>(uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:], body: ByteBuffer? = nil,
                               _ check: @escaping (TestResponse) async throws -> Value = { $0 }) async throws -> Value {
        try await check(executeRequest(uri: uri, method: method, headers: headers, body: body))
    }

    public func get(_ uri: String, headers: HTTPFields = [:]) async throws -> TestResponse {
        try await executeRequest(uri: uri, method: .get, headers: headers, body: nil)
    }

    public func post(_ uri: String, headers: HTTPFields = [:], body: ByteBuffer) async throws -> TestResponse {
        try await executeRequest(uri: uri, method: .post, headers: headers, body: body)
    }
}

/// An HTTP/1.1 client for a hub on a loopback port: one kept-alive
/// connection, opened by the first request and again when the hub closed
/// it; requests one after another. Built on NIO alone (no TLS, nothing the
/// hub does not serve), so the tests' build does not compile a TLS stack.
public actor TestClient: TestClientProtocol {
    public struct Configuration: Sendable {
        /// How long one request may take, connecting included.
        public var timeout: Duration
        public init(timeout: Duration = .seconds(15)) { self.timeout = timeout }
    }

    public struct Request: Sendable {
        public var uri: String
        public var method: HTTPRequest.Method
        /// The Host header; the hub's own address when nil.
        public var authority: String?
        public var headers: HTTPFields
        public var body: ByteBuffer?
        public init(_ uri: String, method: HTTPRequest.Method, authority: String? = nil, headers: HTTPFields = [:], body: ByteBuffer? = nil) {
            self.uri = uri
            self.method = method
            self.authority = authority
            self.headers = headers
            self.body = body
        }
    }

    public enum Failure: Error, CustomStringConvertible {
        case timedOut(String)
        case connectionClosed(String)
        public var description: String {
            switch self {
            case .timedOut(let uri): "no answer to \(uri) in time"
            case .connectionClosed(let uri): "the hub closed the connection before answering \(uri)"
            }
        }
    }

    let host: String
    let port: Int
    let configuration: Configuration
    private var channel: (any Channel)?
    private var collector: ResponseCollector?

    public init(host: String, port: Int, configuration: Configuration = .init()) {
        self.host = host
        self.port = port
        self.configuration = configuration
    }

    public func executeRequest(uri: String, method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer?) async throws -> TestResponse {
        try await execute(Request(uri, method: method, headers: headers, body: body))
    }

    public func execute(_ request: Request) async throws -> TestResponse {
        let (uri, body) = (request.uri, request.body)
        let (channel, collector) = try await openConnection()
        var head = HTTPRequest(method: request.method, scheme: nil, authority: request.authority ?? "\(host):\(port)", path: uri,
                               headerFields: request.headers)
        if let body, head.headerFields[.contentLength] == nil, head.headerFields[.transferEncoding] == nil {
            head.headerFields[.contentLength] = "\(body.readableBytes)"
        }
        let sentHead = head
        let answer = channel.eventLoop.makePromise(of: TestResponse.self)
        let timeout = channel.eventLoop.scheduleTask(in: TimeAmount(configuration.timeout)) {
            answer.fail(Failure.timedOut(uri))
            channel.close(promise: nil)
        }
        channel.eventLoop.execute {
            collector.expect(answer, for: uri)
            channel.write(HTTPRequestPart.head(sentHead), promise: nil)
            if let body { channel.write(HTTPRequestPart.body(body), promise: nil) }
            channel.writeAndFlush(HTTPRequestPart.end(nil)).whenFailure { answer.fail($0) }
        }
        defer { timeout.cancel() }
        let response = try await answer.futureResult.get()
        // After a 101 the connection speaks something else; after
        // `Connection: close` the hub is closing it.
        if response.status == .switchingProtocols || response.headers[.connection]?.lowercased() == "close" {
            try? await close()
        }
        return response
    }

    public func shutdown() async throws {
        try? await close()
    }

    private func close() async throws {
        let open = channel
        channel = nil
        collector = nil
        try await open?.close()
    }

    private func openConnection() async throws -> (any Channel, ResponseCollector) {
        if let channel, let collector, channel.isActive { return (channel, collector) }
        let collector = ResponseCollector()
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(TimeAmount(configuration.timeout))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandlers([HTTP1ToHTTPClientCodec(), collector])
                }
            }
            .connect(host: host, port: port).get()
        self.channel = channel
        self.collector = collector
        return (channel, collector)
    }
}

/// Gathers each answer's head and body and completes the request's promise
/// at its end. Lives on the channel's event loop.
final class ResponseCollector: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPResponsePart

    private var waiting: [(promise: EventLoopPromise<TestResponse>, uri: String)] = []
    private var head: HTTPResponse?
    private var body = ByteBuffer()

    func expect(_ promise: EventLoopPromise<TestResponse>, for uri: String) {
        waiting.append((promise, uri))
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let response):
            // 1xx answers other than 101 come before the real one.
            if response.status.kind == .informational && response.status != .switchingProtocols { return }
            head = response
            body = ByteBuffer()
        case .body(var part):
            body.writeBuffer(&part)
        case .end:
            guard let head, !waiting.isEmpty else { return }
            waiting.removeFirst().promise.succeed(TestResponse(head: head, body: body))
            self.head = nil
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        for request in waiting { request.promise.fail(TestClient.Failure.connectionClosed(request.uri)) }
        waiting.removeAll()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        for request in waiting { request.promise.fail(error) }
        waiting.removeAll()
        context.close(promise: nil)
    }
}
