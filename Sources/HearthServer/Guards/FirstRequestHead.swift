import NIOCore
import NIOHTTP1

/// Just after the HTTP decoder, until the first request's head is read:
/// tells `FirstRequestDeadline` that it arrived, or that it could not be
/// read. Before a head there is no request for Hummingbird to answer, and
/// the WebSocket upgrade handler waits for one for ever, so a bad request
/// line, an 80 KB header or a thousand headers got no answer and held the
/// connection open: now they get 400 or 431 and are closed.
final class FirstRequestHead: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    private let deadline: FirstRequestDeadline

    init(deadline: FirstRequestDeadline) {
        self.deadline = deadline
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let isHead = if case .head = unwrapInboundIn(data) { true } else { false }
        context.fireChannelRead(data)
        if isHead {
            deadline.headArrived()
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parsing = error as? HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        // Not passed on: nothing after the decoder can answer it, and the
        // connection is closed here.
        if parsing == .headerOverflow {
            deadline.refuse(431, "Request Header Fields Too Large",
                            "The request's headers are too large: at most 1,000 headers of 80 KB in all.")
        } else {
            deadline.refuse(400, "Bad Request", "The request could not be read as HTTP/1.1.")
        }
    }
}
