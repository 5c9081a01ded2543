import Foundation

/// What went wrong, in words an app can show.
public enum HearthKitError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The mirror has never reached its hub, so it does not know which device it is.
    case notConnected
    /// The hub could not be reached (the app keeps working on its mirror).
    case unreachable(String)
    /// The hub refused a request: its problem+json `type`, status and words.
    case refused(status: Int, type: String, detail: String)
    /// No such thing in the mirror (or this person may not see it).
    case notFound(String)
    /// A value the hub would refuse, caught before it is queued.
    case invalid(String)
    /// The device's own copy could not be read or written (its SQLite file).
    case mirror(String)

    public var description: String {
        switch self {
        case .notConnected: "This device has not reached its hub yet; connect once while on the home network."
        case .unreachable(let reason): "The hub cannot be reached (\(reason)); changes wait on this device."
        case .refused(let status, let type, let detail): "The hub refused (\(status) \(type)): \(detail)"
        case .notFound(let what): "\(what) is not on this device."
        case .invalid(let problem): problem
        case .mirror(let problem): "This device's copy could not be read or written: \(problem)"
        }
    }

    /// Whether trying again later may work (the network, not the request).
    public var isTemporary: Bool {
        switch self {
        case .unreachable: true
        case .refused(let status, _, _): status >= 500 || status == 429
        default: false
        }
    }
}
