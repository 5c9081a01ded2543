import NIOCore

/// Answers and closes a connection that has not sent one whole, well-formed
/// request head within `within` (408), whatever it sent meanwhile: a byte
/// now and then, or a blank line after garbage. Hummingbird's idle timeout
/// only starts once a head is read, so without this a connection could be
/// held (and a file descriptor of the service's 4096) for ever.
///
/// It sits first in the pipeline, on the raw bytes, so what it writes goes
/// straight to the socket whatever state the HTTP decoder is in; its
/// companion `FirstRequestHead`, just after the decoder, tells it when the
/// head arrived (it steps out of the way) or could not be read (it answers
/// 400 or 431 and closes). Later requests on the connection are
/// Hummingbird's; a WebSocket's frames, its automatic pings'.
final class FirstRequestDeadline: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let within: TimeAmount
    private var deadline: Scheduled<Void>?
    private var context: ChannelHandlerContext?
    private var answered = false

    init(within: TimeAmount) {
        self.within = within
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        if context.channel.isActive { start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        self.context = nil
    }

    /// The first request's head was read whole: Hummingbird has it now.
    func headArrived() {
        deadline?.cancel()
        deadline = nil
        guard let context else { return }
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    /// The hub is stopping: a connection that has sent no request has
    /// nothing to finish and is closed now. Hummingbird's upgrade channel
    /// waits for a first head and would hold every stop (a restart, an
    /// upgrade) until the deadline, 10 s, for a socket a browser opened
    /// ahead of a request it never sent.
    func hubStopping() {
        guard let context, deadline != nil, !answered else { return }
        deadline?.cancel()
        deadline = nil
        answered = true
        context.close(promise: nil)
    }

    /// The first request's head could not be read: say why, and close.
    func refuse(_ status: Int, _ title: String, _ detail: String) {
        guard let context else { return }
        deadline?.cancel()
        deadline = nil
        answer(context, status, title, detail)
    }

    private func start(_ context: ChannelHandlerContext) {
        guard deadline == nil, !answered else { return }
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: within) { [self] in
            deadline = nil
            answer(context, 408, "Request Timeout", "The request's head did not arrive in time.")
        }
    }

    /// A whole problem+json answer with `Connection: close`, once, then the
    /// connection closed; nothing read after it is looked at.
    private func answer(_ context: ChannelHandlerContext, _ status: Int, _ title: String, _ detail: String) {
        guard !answered else { return }
        answered = true
        let problem = #"{"type":"about:blank","title":"\#(title)","status":\#(status),"detail":"\#(detail)"}"#
        let response = "HTTP/1.1 \(status) \(title)\r\nContent-Type: application/problem+json\r\n"
            + "Content-Length: \(problem.utf8.count)\r\nConnection: close\r\n\r\n" + problem
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: response)), promise: nil)
        context.close(promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // After its answer the connection is closing: the decoder is not fed more.
        guard !answered else { return }
        context.fireChannelRead(data)
    }
}
