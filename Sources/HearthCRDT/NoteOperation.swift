/// One edit of a note's text, as replicas exchange and the hub stores them.
public enum NoteOperation: Hashable, Sendable {
    case insertion(Insertion)
    case deletion(Deletion)

    /// `text` typed between `originLeft` and `originRight`; character `k`
    /// has id `(id.replica, id.counter + k)`.
    public struct Insertion: Hashable, Sendable {
        public var id: CharacterID
        public var originLeft: CharacterID?
        public var originRight: CharacterID?
        public var text: String

        public init(id: CharacterID, originLeft: CharacterID?, originRight: CharacterID?, text: String) {
            self.id = id
            self.originLeft = originLeft
            self.originRight = originRight
            self.text = text
        }
    }

    /// The characters named by `targets` are deleted; the operation takes
    /// as many counter values as it deletes characters.
    public struct Deletion: Hashable, Sendable {
        public var id: CharacterID
        public var targets: [IDSpan]

        public init(id: CharacterID, targets: [IDSpan]) {
            self.id = id
            self.targets = targets
        }
    }

    public var id: CharacterID {
        switch self {
        case .insertion(let insertion): return insertion.id
        case .deletion(let deletion): return deletion.id
        }
    }

    /// How many counter values the operation takes.
    public var length: UInt64 {
        switch self {
        case .insertion(let insertion): return UInt64(insertion.text.unicodeScalars.count)
        case .deletion(let deletion): return deletion.targets.reduce(0) { $0 + $1.length }
        }
    }
}
