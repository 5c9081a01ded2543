import NIOCore
import NIOHTTP1

/// Keeps the server's end of input behind the bytes that came before it
/// while the upgrade hands the connection from HTTP to WebSocket frames.
///
/// A hub that refuses a socket at once (the Notek listener's ninth
/// connection from one address, 4429 "too many") sends its 101, a close
/// frame and its FIN within a millisecond. Read together, the close frame
/// is still inside NIO's HTTP decoder, whose removal finishes on the event
/// loop's next turn; an end of input seen before that makes the decoder drop
/// what it holds, and the client heard no close frame and no reason. So the
/// channel allows half-closure (the end of input is an event, not the
/// channel's end), this handler sits first and holds that event until the
/// upgrade has passed on everything read before it.
final class EndOfInputDuringUpgrade: ChannelInboundHandler, RemovableChannelHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    // Read and written on the channel's event loop only.
    private var context: ChannelHandlerContext?
    private var upgradeSettled = false
    private var holding = false

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard case .inputClosed? = event as? ChannelEvent, !upgradeSettled else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        holding = true
        // The HTTP decoder's removal, begun when the answer's head ended, was
        // queued before this turn: once it has run, either the upgrade is
        // under way with every byte, or the answer was cut short and can
        // never end, and the connection is closed (which fails the upgrade).
        context.eventLoop.assumeIsolated().execute {
            guard !self.upgradeSettled, self.context != nil else { return }
            let answerEnded = (try? context.pipeline.syncOperations.context(
                handlerType: ByteToMessageHandler<HTTPResponseDecoder>.self)) == nil
            if !answerEnded { context.close(promise: nil) }
        }
    }

    /// Told when the upgrade has an outcome, on the channel's event loop.
    /// NIO succeeds the upgrade's promise before it passes on the bytes it
    /// buffered meanwhile, so the held end follows a turn later.
    func upgradeDidSettle() {
        upgradeSettled = true
        guard holding, let context else { return }
        holding = false
        context.eventLoop.assumeIsolated().execute {
            guard self.context != nil else { return }
            context.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
        }
    }
}
