import Foundation
import HearthCore
import NIOCore
import NIOHTTP1
import NIOPosix

/// A real HTTP server on a loopback port standing in for Home Assistant or
/// ntfy: it records every request and answers with the statuses it is given
/// in turn (then 200).
final class WebhookReceiver: Sendable {
    struct Received: Sendable {
        var method: String
        var uri: String
        var contentType: String?
        var body: Data
        var headers: [String: String] = [:]
    }

    let port: Int
    private let answers: Locked<[Int]>
    private let received = Locked<[Received]>([])
    private let server: NIOAsyncChannel<NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, Never>
    private let task: Locked<Task<Void, Never>?> = Locked(nil)

    init(answers: [Int]) async throws {
        self.answers = Locked(answers)
        server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: 0) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    return try NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>(wrappingChannelSynchronously: channel)
                }
            }
        port = server.channel.localAddress?.port ?? 0
        let server = self.server
        task.withLock { $0 = Task { [self] in
            try? await server.executeThenClose { connections in
                for try await connection in connections { await self.answer(connection) }
            }
        } }
    }

    var requests: [Received] { received.withLock { $0 } }

    func waitForRequests(_ count: Int, within seconds: Double = 10) async throws -> [Received] {
        let deadline = Date().addingTimeInterval(seconds)
        while requests.count < count, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        return requests
    }

    func stop() {
        task.withLock { $0?.cancel() }
        server.channel.close(promise: nil)
    }

    private func answer(_ connection: NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>) async {
        try? await connection.executeThenClose { inbound, outbound in
            var head: HTTPRequestHead?
            var body = Data()
            for try await part in inbound {
                switch part {
                case .head(let requestHead): head = requestHead
                case .body(let buffer): body.append(contentsOf: buffer.readableBytesView)
                case .end:
                    guard let head else { return }
                    received.withLock {
                        $0.append(Received(method: head.method.rawValue, uri: head.uri,
                                           contentType: head.headers.first(name: "Content-Type"), body: body,
                                           headers: Dictionary(head.headers.map { ($0.name.lowercased(), $0.value) }) { first, _ in first }))
                    }
                    let status = answers.withLock { $0.isEmpty ? 200 : $0.removeFirst() }
                    var headers = HTTPHeaders()
                    headers.add(name: "Content-Length", value: "0")
                    headers.add(name: "Connection", value: "close")
                    try await outbound.write(.head(HTTPResponseHead(version: .http1_1, status: .init(statusCode: status), headers: headers)))
                    try await outbound.write(.end(nil))
                    return
                }
            }
        }
    }
}
