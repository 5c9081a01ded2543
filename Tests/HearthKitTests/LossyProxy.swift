import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A TCP relay on a loopback port in front of the hub that can lose one
/// answer: once armed, the next response to a `POST /api/v1/sync` is thrown
/// away and both connections are closed — after the hub has committed the
/// push, so the device never hears that it landed.
final class LossyProxy: Sendable {
    private let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    private let channel: any Channel
    private let state = NIOLockedValueBox(State())
    let port: Int

    struct State {
        var armed = false
        var cut = 0
        var syncRequests = 0
    }

    var cutCount: Int { state.withLockedValue { $0.cut } }
    var syncRequests: Int { state.withLockedValue { $0.syncRequests } }
    func armCut() { state.withLockedValue { $0.armed = true } }

    init(hubPort: Int) async throws {
        let state = self.state, group = self.group
        channel = try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { inbound in
                ClientBootstrap(group: group).connect(host: "127.0.0.1", port: hubPort).flatMap { outbound in
                    let watch = SyncWatch(state: state)
                    return inbound.pipeline.addHandler(Relay(partner: outbound, watch: watch, fromDevice: true)).flatMap {
                        outbound.pipeline.addHandler(Relay(partner: inbound, watch: watch, fromDevice: false))
                    }
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        port = channel.localAddress?.port ?? 0
    }

    func shutdown() async throws {
        try await channel.close()
        try await group.shutdownGracefully()
    }

    /// What one device connection last asked for.
    final class SyncWatch: @unchecked Sendable {
        // @unchecked: touched only on the proxy's single event loop.
        let state: NIOLockedValueBox<State>
        var lastWasSync = false
        init(state: NIOLockedValueBox<State>) { self.state = state }
    }

    final class Relay: ChannelInboundHandler, @unchecked Sendable {
        // @unchecked: each handler lives on the proxy's single event loop.
        typealias InboundIn = ByteBuffer
        let partner: any Channel
        let watch: SyncWatch
        let fromDevice: Bool

        init(partner: any Channel, watch: SyncWatch, fromDevice: Bool) {
            self.partner = partner
            self.watch = watch
            self.fromDevice = fromDevice
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let buffer = unwrapInboundIn(data)
            if fromDevice {
                let head = String(decoding: buffer.readableBytesView.prefix(32), as: UTF8.self)
                if head.hasPrefix("POST ") || head.hasPrefix("GET ") {
                    watch.lastWasSync = head.hasPrefix("POST /api/v1/sync ")
                    if watch.lastWasSync { watch.state.withLockedValue { $0.syncRequests += 1 } }
                }
            } else if watch.lastWasSync {
                let cut = watch.state.withLockedValue { state -> Bool in
                    guard state.armed else { return false }
                    state.armed = false
                    state.cut += 1
                    return true
                }
                if cut {
                    context.close(promise: nil)
                    partner.close(promise: nil)
                    return
                }
            }
            partner.writeAndFlush(buffer, promise: nil)
        }

        func channelInactive(context: ChannelHandlerContext) {
            partner.close(promise: nil)
        }
    }
}
