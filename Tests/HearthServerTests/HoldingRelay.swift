import NIOCore
import NIOPosix

/// A TCP relay on a loopback port in front of one of the hub's listeners
/// that holds back everything the listener sends until the listener has
/// finished sending, then passes it on in one write followed by the end of
/// output. A client behind it reads an upgrade's answer, the frames after it
/// and the end of input in one go, as a client on a busy machine may when
/// the hub answers and closes within a millisecond.
final class HoldingRelay: Sendable {
    private let channel: any Channel
    let port: Int

    init(to listenerPort: Int) async throws {
        channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { device in
                // One event loop for both ends, so each handler is touched by one thread.
                ClientBootstrap(group: device.eventLoop).connect(host: "127.0.0.1", port: listenerPort).flatMap { listener in
                    device.eventLoop.makeCompletedFuture {
                        try device.pipeline.syncOperations.addHandler(Forward(to: listener))
                        try listener.pipeline.syncOperations.addHandler(HoldUntilTheEnd(device: device))
                    }
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        port = channel.localAddress?.port ?? 0
    }

    func shutdown() async throws {
        try await channel.close()
    }

    /// The device's bytes go straight on to the listener.
    private final class Forward: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        let listener: any Channel
        init(to listener: any Channel) { self.listener = listener }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            listener.writeAndFlush(unwrapInboundIn(data), promise: nil)
        }

        func channelInactive(context: ChannelHandlerContext) {
            listener.close(promise: nil)
            context.fireChannelInactive()
        }
    }

    /// The listener's bytes wait for its end, then go to the device at once.
    private final class HoldUntilTheEnd: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        let device: any Channel
        var held: ByteBuffer?
        init(device: any Channel) { self.device = device }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var bytes = unwrapInboundIn(data)
            if held == nil { held = bytes } else { held!.writeBuffer(&bytes) }
        }

        func channelInactive(context: ChannelHandlerContext) {
            let device = self.device
            device.writeAndFlush(held ?? device.allocator.buffer(capacity: 0)).whenComplete { _ in
                device.close(mode: .output, promise: nil)
            }
            context.fireChannelInactive()
        }
    }
}
