/// Why a Notek frame was refused. The hub closes the connection on any of
/// these, with `description` as the close reason.
public enum NotekProtocolError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The frame ended in the middle of `what`.
    case truncated(what: String)
    /// A complete message followed by this many more bytes.
    case trailingBytes(Int)
    /// A PID depth outside 1...32.
    case badDepth(Int)
    /// An atom's character length outside 1...4.
    case badCharacterLength(Int)
    /// An atom's bytes are not valid UTF-8, or not exactly one Unicode scalar.
    case notOneCharacter
    /// No message has this tag in that direction at all.
    case unknownTag(UInt8, NotekConnectionKind)
    /// A message that exists, but not on this kind of connection (a session
    /// message on a sync connection, a second greet or session_start, …).
    case wrongConnectionKind(tag: UInt8, connection: NotekConnectionKind)
    /// A name of more than 255 bytes (its length without the new line).
    case nameTooLong(Int)
    /// A name that is not valid UTF-8.
    case nameNotUTF8
    /// A count the rest of the frame cannot possibly hold; refused before
    /// anything is allocated for it.
    case countTooLarge(UInt64)

    /// One short line, kept well under the 123 bytes a WebSocket close reason may take.
    public var description: String {
        switch self {
        case .truncated(let what): return "protocol error: frame ends inside \(what)"
        case .trailingBytes(let count): return "protocol error: \(count) bytes after the end of the message"
        case .badDepth(let depth): return "protocol error: PID depth \(depth) is not 1 to 32"
        case .badCharacterLength(let length): return "protocol error: character length \(length) is not 1 to 4"
        case .notOneCharacter: return "protocol error: character bytes are not one UTF-8 character"
        case .unknownTag(let tag, let kind): return "protocol error: unknown message tag \(tag) on \(kind.phrase)"
        case .wrongConnectionKind(let tag, let kind): return "protocol error: message \(tag) does not belong on \(kind.phrase)"
        case .nameTooLong(let length): return "protocol error: name of \(length) bytes is over 255"
        case .nameNotUTF8: return "protocol error: name is not UTF-8"
        case .countTooLarge(let count): return "protocol error: count \(count) does not fit in the frame"
        }
    }
}
