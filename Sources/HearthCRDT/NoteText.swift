// The text of a note as one replica holds it: a sequence CRDT that every
// replica can edit at once, offline too, and that converges whatever order
// the edits arrive in.
//
// Algorithm: YjsMod integration (J. Gentle, reference-crdts), in the YATA
// family (Nicolaescu et al., "Near Real-Time Peer-to-Peer Shared Editing on
// Extensible Data Types", GROUP 2016) that Weidner and Kleppmann analyse in
// "The Art of the Fugue: Minimizing Interleaving in Collaborative Text
// Editing" (2023): each character records its left and right origins,
// deletions leave tombstones, and runs typed concurrently at one place do not
// interleave. The exact rules and the binary encoding are in
// Docs/note-crdt.md, which Web/notes/crdt.js follows too.
//
// Layout, as in Yjs and diamond-types: runs of characters typed together are
// single items in a B+ tree counted by visible and by total length, with an
// index from (replica, counter) to the leaf holding it.

/// One replica of a note's text.
///
/// Not thread-safe: one owner (an actor, or one task) uses it at a time.
public final class NoteText {
    /// This replica's id, used for local edits.
    public let replica: UInt64

    var replicaIDs: ContiguousArray<UInt64> = []
    var replicaIndexes: [UInt64: Int32] = [:]
    /// Per replica index: the next counter expected.
    var nextCounters: ContiguousArray<Int> = []
    /// Per replica index, per counter: the leaf holding that character, or
    /// nil for a counter of a deletion.
    var leaves: ContiguousArray<ContiguousArray<RunNode?>> = []
    var root: RunNode
    var firstLeaf: RunNode
    /// Every character's scalar, appended as text arrives; runs point into it.
    var scalars: ContiguousArray<Unicode.Scalar> = []
    /// Remote operations waiting for what they depend on: per replica, in
    /// the order replicas first had one waiting, each list by counter.
    var pending: [(replica: UInt64, operations: [NoteOperation])] = []
    let localIndex: Int32

    public init(replica: UInt64) {
        precondition(replica > 0 && replica < ReplicaRange.limit, "replica ids are 1 ..< 2^53")
        self.replica = replica
        let leaf = RunNode(isLeaf: true)
        root = leaf
        firstLeaf = leaf
        replicaIDs = [replica]
        replicaIndexes = [replica: 0]
        nextCounters = [0]
        leaves = [[]]
        localIndex = 0
    }

    /// The number of visible characters (Unicode scalars).
    public var count: Int { root.visible }

    /// Characters including tombstones.
    public var storedCount: Int { root.total }

    /// How many operations are waiting for ones they depend on.
    public var pendingCount: Int { pending.reduce(0) { $0 + $1.operations.count } }

    /// Written straight as UTF-8 into the string's own storage: the hub
    /// stores a note's text with every keystroke, so for a long note this
    /// was a quarter of the hub's work per keystroke into a 200 KB note when
    /// built by appending to a String's scalar view.
    public var text: String {
        var visible: [Range<Int>] = []
        var bytes = 0
        var leaf: RunNode? = firstLeaf
        while let current = leaf {
            for run in current.runs where !run.deleted {
                let range = run.content..<run.content + run.length
                visible.append(range)
                for scalar in scalars[range] { bytes += UTF8.width(scalar) }
            }
            leaf = current.nextLeaf
        }
        return String(unsafeUninitializedCapacity: bytes) { buffer in
            var at = 0
            for range in visible {
                for scalar in scalars[range] {
                    UTF8.encode(scalar) { byte in
                        buffer[at] = byte
                        at += 1
                    }
                }
            }
            return at
        }
    }

    public var versionVector: VersionVector {
        var next: [UInt64: UInt64] = [:]
        for (index, id) in replicaIDs.enumerated() where nextCounters[index] > 0 {
            next[id] = UInt64(nextCounters[index])
        }
        return VersionVector(next)
    }

    // MARK: Local edits

    /// Inserts `text` before the visible character at `position` (in
    /// scalars) and returns the operation to send to the other replicas.
    @discardableResult
    public func insert(_ text: String, at position: Int) throws(NoteTextError) -> NoteOperation {
        guard position >= 0, position <= count else { throw .outOfRange(position: position, length: count) }
        guard !text.isEmpty else { throw .invalid("nothing to insert") }
        let cursor = cursor(beforeVisible: position)
        let originLeft = character(before: cursor)
        let originRight = cursor.isAtEnd ? PackedID.none : cursor.run.id(at: cursor.offset)
        let counter = nextCounters[Int(localIndex)]
        let content = scalars.count
        scalars.append(contentsOf: text.unicodeScalars)
        let length = scalars.count - content
        let run = Run(replica: localIndex, deleted: false, counter: counter, length: length,
                      content: content, originLeft: originLeft, originRight: originRight)
        insert(run, at: cursor)
        nextCounters[Int(localIndex)] = counter + length
        return .insertion(.init(id: CharacterID(replica: replica, counter: UInt64(counter)),
                                originLeft: unpacked(originLeft), originRight: unpacked(originRight), text: text))
    }

    /// Deletes `length` visible characters from `position`; nil when
    /// `length` is 0.
    @discardableResult
    public func delete(at position: Int, length: Int) throws(NoteTextError) -> NoteOperation? {
        guard position >= 0, length >= 0, position + length <= count else {
            throw .outOfRange(position: position + max(length, 0), length: count)
        }
        guard length > 0 else { return nil }
        var spans: [IDSpan] = []
        var cursor = cursor(beforeVisible: position)
        var remaining = length
        while remaining > 0, !cursor.isAtEnd {
            let run = cursor.run
            let available = run.length - cursor.offset
            if run.deleted {
                cursor.advance(by: available)
                continue
            }
            let take = min(available, remaining)
            let replicaID = replicaIDs[Int(run.replica)]
            let counter = UInt64(run.counter + cursor.offset)
            if let last = spans.last, last.replica == replicaID, last.counter + last.length == counter {
                spans[spans.count - 1].length += UInt64(take)
            } else {
                spans.append(IDSpan(replica: replicaID, counter: counter, length: UInt64(take)))
            }
            remaining -= take
            cursor.advance(by: take)
        }
        let counter = nextCounters[Int(localIndex)]
        for span in spans { markDeleted(span) }
        nextCounters[Int(localIndex)] = counter + length
        return .deletion(.init(id: CharacterID(replica: replica, counter: UInt64(counter)), targets: spans))
    }

    // MARK: Replica table

    func index(ofReplica id: UInt64) -> Int32 {
        if let index = replicaIndexes[id] { return index }
        let index = Int32(replicaIDs.count)
        replicaIDs.append(id)
        replicaIndexes[id] = index
        nextCounters.append(0)
        leaves.append([])
        return index
    }

    func nextCounter(of replica: UInt64) -> Int {
        replicaIndexes[replica].map { nextCounters[Int($0)] } ?? 0
    }

    func packed(_ id: CharacterID?) -> PackedID {
        guard let id, let index = replicaIndexes[id.replica] else { return .none }
        return PackedID(replica: index, counter: Int(id.counter))
    }

    func unpacked(_ id: PackedID) -> CharacterID? {
        id.isNone ? nil : CharacterID(replica: replicaIDs[Int(id.replica)], counter: UInt64(id.counter))
    }
}
