/// Every character in document order, tombstones included: what a bridge to
/// another ordering of the same characters (Notek's position identifiers)
/// needs, because the order of characters that exist never changes and
/// tombstones keep their place in it.
extension NoteText {
    /// One character as this replica stores it.
    public struct StoredCharacter: Hashable, Sendable {
        public var id: CharacterID
        /// nil for a tombstone whose text was never known here (decoded from a state).
        public var scalar: Unicode.Scalar?
        public var isDeleted: Bool
    }

    /// Where the character is among all characters, tombstones included;
    /// nil when it is not here.
    public func rawIndex(of id: CharacterID) -> Int? {
        let packed = packed(id)
        guard !packed.isNone, let cursor = cursor(at: packed) else { return nil }
        return rawPosition(of: cursor)
    }

    /// The character at raw index `index` (0 ..< storedCount).
    public func character(atRaw index: Int) -> StoredCharacter? {
        guard index >= 0, index < root.total else { return nil }
        var node = root
        var remaining = index
        while !node.isLeaf {
            var chosen = node.children.count - 1
            for (position, child) in node.children.enumerated() {
                if remaining < child.total {
                    chosen = position
                    break
                }
                remaining -= child.total
            }
            node = node.children[chosen]
        }
        for run in node.runs {
            if remaining < run.length { return stored(run, offset: remaining) }
            remaining -= run.length
        }
        return nil
    }

    /// Calls `body` with every character in document order.
    public func forEachStoredCharacter(_ body: (StoredCharacter) throws -> Void) rethrows {
        var leaf: RunNode? = firstLeaf
        while let current = leaf {
            for run in current.runs {
                for offset in 0..<run.length { try body(stored(run, offset: offset)) }
            }
            leaf = current.nextLeaf
        }
    }

    /// Whether the character is visible; nil when it is not here.
    public func isVisible(_ id: CharacterID) -> Bool? {
        let packed = packed(id)
        guard !packed.isNone, let cursor = cursor(at: packed) else { return nil }
        return !cursor.run.deleted
    }

    /// The counter this replica's next local operation takes.
    public var nextLocalCounter: UInt64 { UInt64(nextCounters[Int(localIndex)]) }

    private func stored(_ run: Run, offset: Int) -> StoredCharacter {
        let id = CharacterID(replica: replicaIDs[Int(run.replica)], counter: UInt64(run.counter + offset))
        let scalar = run.content >= 0 ? scalars[run.content + offset] : nil
        return StoredCharacter(id: id, scalar: scalar, isDeleted: run.deleted)
    }
}
