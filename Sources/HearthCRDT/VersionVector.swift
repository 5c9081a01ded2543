/// How many counter values of each replica a note has applied: the next
/// counter it expects from each.
public struct VersionVector: Hashable, Sendable {
    public private(set) var next: [UInt64: UInt64]

    public init(_ next: [UInt64: UInt64] = [:]) {
        self.next = next.filter { $0.value > 0 }
    }

    public subscript(replica: UInt64) -> UInt64 {
        get { next[replica] ?? 0 }
        set { next[replica] = newValue == 0 ? nil : newValue }
    }

    /// True when every operation counted here is also counted in `other`.
    public func isIncluded(in other: VersionVector) -> Bool {
        next.allSatisfy { other[$0.key] >= $0.value }
    }

    /// Whether the operation `id ..< id + length` is already counted.
    public func contains(_ id: CharacterID) -> Bool {
        id.counter < self[id.replica]
    }
}
