import CDNSSD

/// A DNS-SD call that failed, with the library's error code. The commonest by
/// far is "unknown" (-65537): Avahi's compatibility library answers that when
/// avahi-daemon or the D-Bus system bus is not running.
public struct DNSSDError: Error, Sendable, Equatable, CustomStringConvertible {
    public let code: Int32
    /// What we were doing, e.g. `register _hearth._tcp`.
    public let operation: String

    public init(code: Int32, operation: String) {
        self.code = code
        self.operation = operation
    }

    public var description: String {
        "\(operation) failed: \(meaning) (\(code))"
    }

    /// The library's constant, in words an admin can act on.
    public var meaning: String {
        switch Int(code) {
        case kDNSServiceErr_Unknown: return "the mDNS responder (avahi-daemon) cannot be reached"
        case kDNSServiceErr_NameConflict: return "the name is taken on the network"
        case kDNSServiceErr_BadParam: return "a name, type or text record was refused as invalid"
        case kDNSServiceErr_Unsupported: return "not supported by this mDNS responder"
        case kDNSServiceErr_NoMemory: return "out of memory"
        case kDNSServiceErr_Refused: return "the mDNS responder refused the request"
        default: return "DNS-SD error"
        }
    }
}
