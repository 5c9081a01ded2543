/// Why an operation or an encoding was refused. Nothing is changed when one
/// of these is thrown.
public enum NoteTextError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Bytes that do not follow Docs/note-crdt.md.
    case malformed(String)
    /// An operation that names characters this replica has not seen, or
    /// skips counter values of its replica.
    case notReady(CharacterID)
    /// An operation that names an id which is not a character (e.g. a
    /// deletion's own id), or is empty.
    case invalid(String)
    /// A position outside the text.
    case outOfRange(position: Int, length: Int)

    public var description: String {
        switch self {
        case .malformed(let why): return "malformed note data: \(why)"
        case .notReady(let id): return "operation depends on \(id), which has not been received"
        case .invalid(let why): return "invalid operation: \(why)"
        case .outOfRange(let position, let length): return "position \(position) is outside the text (length \(length))"
        }
    }
}
