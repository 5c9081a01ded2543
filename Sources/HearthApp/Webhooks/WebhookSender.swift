import Foundation
import HearthCore
import NIOCore
import NIOHTTP1
import NIOPosix

/// Posts one JSON body to one webhook over HTTP/1.1 and reports the status
/// the receiver answered. A new connection per delivery: alerts are rare,
/// and a connection left open to a LAN device that went away would only
/// fail the next, more important, delivery.
struct WebhookSender: Sendable {
    /// How long one attempt may take, connecting included.
    var timeout: Duration = .seconds(10)

    func post(_ body: [UInt8], to destination: WebhookTarget) async throws -> Int {
        try await withThrowingTaskGroup(of: Int.self) { group in
            group.addTask { try await send(body, to: destination) }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw WebhookDeliveryError("no answer within \(timeout.components.seconds) s")
            }
            defer { group.cancelAll() }
            guard let status = try await group.next() else { throw WebhookDeliveryError("no answer") }
            return status
        }
    }

    private func send(_ body: [UInt8], to destination: WebhookTarget) async throws -> Int {
        let channel: NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>
        do {
            channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(.seconds(Int64(timeout.components.seconds)))
                .connect(host: destination.host, port: destination.port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHTTPClientHandlers()
                        return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(wrappingChannelSynchronously: channel)
                    }
                }
        } catch {
            // Health is public, so the words stay general; the log has the rest.
            throw WebhookDeliveryError("could not connect to the receiver", detail: "\(error)")
        }
        return try await channel.executeThenClose { inbound, outbound in
            var head = HTTPRequestHead(version: .http1_1, method: .POST, uri: destination.target)
            head.headers.add(name: "Host", value: destination.hostHeader)
            head.headers.add(name: "Content-Type", value: "application/json")
            head.headers.add(name: "Content-Length", value: String(body.count))
            head.headers.add(name: "User-Agent", value: "Hearth/\(HearthVersion.current)")
            head.headers.add(name: "Connection", value: "close")
            try await outbound.write(.head(head))
            try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: body))))
            try await outbound.write(.end(nil))
            for try await part in inbound {
                if case .head(let response) = part { return Int(response.status.code) }
            }
            throw WebhookDeliveryError("the connection closed before an answer")
        }
    }
}

/// Why one delivery attempt failed: a short reason for the health route
/// (which anyone on the LAN may read) and the full one for the log.
struct WebhookDeliveryError: Error, CustomStringConvertible {
    var description: String
    var detail: String?
    init(_ description: String, detail: String? = nil) {
        self.description = description
        self.detail = detail
    }
}
