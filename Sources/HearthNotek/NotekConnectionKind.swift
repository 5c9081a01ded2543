/// What a Notek connection is for. The first message a client sends decides
/// it, and it never changes, so each later frame is decoded against it.
public enum NotekConnectionKind: Sendable, Equatable {
    /// Nothing received yet.
    case undecided
    /// An old client that greeted with `0x00` and edits the one shared document.
    case legacy
    /// A current client listing, pulling and pushing whole documents.
    case sync
    /// A current client editing one document live after `session_start`.
    case session

    /// For error messages: "a sync connection".
    var phrase: String {
        switch self {
        case .undecided: return "a new connection"
        case .legacy: return "a legacy connection"
        case .sync: return "a sync connection"
        case .session: return "an editing session"
        }
    }
}
