/// The identity of one character of a note: which replica typed it, and the
/// value of that replica's counter when it did. See Docs/note-crdt.md.
public struct CharacterID: Hashable, Sendable, CustomStringConvertible {
    public var replica: UInt64
    public var counter: UInt64

    public init(replica: UInt64, counter: UInt64) {
        self.replica = replica
        self.counter = counter
    }

    public var description: String { "\(replica):\(counter)" }
}

/// Consecutive ids of one replica: `counter ..< counter + length`.
public struct IDSpan: Hashable, Sendable {
    public var replica: UInt64
    public var counter: UInt64
    public var length: UInt64

    public init(replica: UInt64, counter: UInt64, length: UInt64) {
        self.replica = replica
        self.counter = counter
        self.length = length
    }
}

/// Replica ids are below 2^53 so a browser holds them exactly as numbers;
/// counters stay below 2^52 so a state's zigzagged counter differences do too.
public enum ReplicaRange {
    public static let limit: UInt64 = 1 << 53
    public static let counterLimit: UInt64 = 1 << 52

    /// A fresh random replica id for a new editing session.
    public static func random() -> UInt64 {
        UInt64.random(in: 1..<limit)
    }
}
