import CDNSSD
import Foundation

/// One advertisement registered with the mDNS responder, for as long as it
/// is not cancelled.
final class ServiceRegistration: Sendable {
    enum Reply: Sendable, Equatable {
        /// The responder announced the service under this name, which is the
        /// requested one or, after a conflict, one with a suffix such as ` #2`.
        case registered(name: String)
        /// The registration no longer holds: the responder went away, or it
        /// had to take the service down. Register again from scratch.
        case lost(DNSSDError?)
    }

    private let operation: DNSSDOperation

    init(_ advertisement: Advertisement, onReply: @escaping @Sendable (Reply) -> Void) throws {
        let txt = try advertisement.txt.encoded()
        let replies = RegistrationReplies(type: advertisement.type, onReply: onReply)
        operation = try DNSSDOperation(
            "register \(advertisement.type)", replies: replies, onBroken: { onReply(.lost($0)) }
        ) { ref, context in
            txt.withUnsafeBytes { bytes in
                DNSServiceRegister(
                    ref, 0, 0, advertisement.name, advertisement.type, nil, nil,
                    advertisement.port.bigEndian, UInt16(bytes.count), bytes.baseAddress,
                    { _, _, code, name, _, _, context in
                        guard let context else { return }
                        let replies = Unmanaged<RegistrationReplies>.fromOpaque(context).takeUnretainedValue()
                        replies.received(code: code, name: name.map { String(cString: $0) })
                    },
                    context)
            }
        }
    }

    func cancel() async {
        await operation.cancel()
    }
}

/// Turns the library's register callbacks into `Reply`s.
///
/// Avahi calls back once when the service is established (or renamed and
/// then established), and calls back again, also without an error code,
/// when its daemon disconnects. So only the first error-free reply means
/// "registered"; any later one means the registration must be made anew.
private final class RegistrationReplies: @unchecked Sendable {
    // @unchecked: `answered` is read and written only while holding
    // `answeredLock`; the other properties never change.
    let type: String
    let onReply: @Sendable (ServiceRegistration.Reply) -> Void
    private var answered = false
    private let answeredLock = NSLock()

    init(type: String, onReply: @escaping @Sendable (ServiceRegistration.Reply) -> Void) {
        self.type = type
        self.onReply = onReply
    }

    func received(code: DNSServiceErrorType, name: String?) {
        let first = answeredLock.withLock {
            defer { answered = true }
            return !answered
        }
        if code != DNSServiceErrorType(kDNSServiceErr_NoError) {
            onReply(.lost(DNSSDError(code: code, operation: "register \(type)")))
        } else if first, let name {
            onReply(.registered(name: name))
        } else {
            onReply(.lost(nil))
        }
    }
}
