import NIOCore

/// Answers 408 and closes a connection that has not sent the head of its
/// first request within `within`, then steps out of the way: it reads the
/// raw bytes ahead of the HTTP decoder only until the blank line that ends
/// that head. Later requests on the connection are Hummingbird's idle
/// timeout's; a WebSocket's frames, its automatic pings'.
final class FirstRequestDeadline: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let within: TimeAmount
    private var deadline: Scheduled<Void>?
    /// The last two bytes read, for a blank line split across reads.
    private var last: (UInt8, UInt8) = (0, 0)

    init(within: TimeAmount) {
        self.within = within
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let headEnded = sawBlankLine(in: unwrapInboundIn(data))
        context.fireChannelRead(data)
        if headEnded {
            deadline?.cancel()
            deadline = nil
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        }
    }

    private func start(_ context: ChannelHandlerContext) {
        guard deadline == nil else { return }
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: within) { [self] in
            deadline = nil
            let problem = #"{"type":"about:blank","title":"Request Timeout","status":408,"detail":"The request's head did not arrive in time."}"#
            let response = "HTTP/1.1 408 Request Timeout\r\nContent-Type: application/problem+json\r\n"
                + "Content-Length: \(problem.utf8.count)\r\nConnection: close\r\n\r\n" + problem
            context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: response)), promise: nil)
            context.close(promise: nil)
        }
    }

    /// Whether `buffer` completes a blank line (`\r\n\r\n`, or `\n\n`, which
    /// HTTP parsers take too), counting the bytes of earlier reads.
    private func sawBlankLine(in buffer: ByteBuffer) -> Bool {
        for byte in buffer.readableBytesView {
            defer { last = (last.1, byte) }
            guard byte == UInt8(ascii: "\n") else { continue }
            if last.1 == UInt8(ascii: "\n") || (last.1 == UInt8(ascii: "\r") && last.0 == UInt8(ascii: "\n")) {
                return true
            }
        }
        return false
    }
}
