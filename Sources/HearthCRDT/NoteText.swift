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
// Docs/note-crdt.md, which Web/crdt.js follows too.
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
    /// Remote operations waiting for what they depend on.
    var pending: [NoteOperation] = []
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
    public var pendingCount: Int { pending.count }

    public var text: String {
        var view = String.UnicodeScalarView()
        view.reserveCapacity(root.visible)
        var leaf: RunNode? = firstLeaf
        while let current = leaf {
            for run in current.runs where !run.deleted {
                view.append(contentsOf: scalars[run.content..<run.content + run.length])
            }
            leaf = current.nextLeaf
        }
        return String(view)
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

    // MARK: Remote edits

    /// Applies another replica's operation. Duplicates are ignored and an
    /// operation that overlaps what is applied is trimmed. One that depends
    /// on something not yet here waits (`waitForMissing`) or is refused.
    /// A refused operation changes nothing.
    public func apply(_ operation: NoteOperation, waitForMissing: Bool = true) throws(NoteTextError) {
        switch try readiness(of: operation) {
        case .duplicate:
            return
        case .waiting(let missing):
            if waitForMissing { pending.append(operation) } else { throw .notReady(missing) }
            return
        case .ready(let ready):
            integrate(ready)
        }
        applyPending()
    }

    private func applyPending() {
        var progressed = true
        while progressed, !pending.isEmpty {
            progressed = false
            var waiting: [NoteOperation] = []
            for operation in pending {
                switch try? readiness(of: operation) {
                case .ready(let ready):
                    integrate(ready)
                    progressed = true
                case .waiting:
                    waiting.append(operation)
                case .duplicate, .none:
                    progressed = true
                }
            }
            pending = waiting
        }
    }

    enum Readiness {
        case duplicate
        case waiting(CharacterID)
        case ready(NoteOperation)
    }

    /// Checks an operation against what this replica has, and trims the part
    /// already applied.
    func readiness(of operation: NoteOperation) throws(NoteTextError) -> Readiness {
        let id = operation.id
        guard id.replica > 0, id.replica < ReplicaRange.limit else { throw .invalid("replica \(id.replica) is out of range") }
        let length = operation.length
        guard length > 0 else { throw .invalid("an operation of no characters") }
        guard id.counter < ReplicaRange.limit, length < ReplicaRange.limit - id.counter else {
            throw .invalid("counter \(id.counter) is out of range")
        }
        let have = UInt64(nextCounter(of: id.replica))
        if id.counter + length <= have { return .duplicate }
        if id.counter > have { return .waiting(CharacterID(replica: id.replica, counter: have)) }
        let trimmed = have > id.counter ? Self.dropFirst(Int(have - id.counter), of: operation) : operation
        switch trimmed {
        case .insertion(let insertion):
            for origin in [insertion.originLeft, insertion.originRight].compactMap({ $0 }) {
                if let missing = try missingCharacter(origin) { return .waiting(missing) }
            }
        case .deletion(let deletion):
            for span in deletion.targets {
                guard span.length > 0 else { throw .invalid("an empty deletion span") }
                guard span.counter < ReplicaRange.limit, span.length < ReplicaRange.limit - span.counter else {
                    throw .invalid("deletion span out of range")
                }
                for counter in span.counter..<span.counter + span.length {
                    if let missing = try missingCharacter(CharacterID(replica: span.replica, counter: counter)) {
                        return .waiting(missing)
                    }
                }
            }
        }
        return .ready(trimmed)
    }

    /// nil when `id` is a character here; the id when it has not arrived
    /// yet; throws when it can never be one (a deletion's own counter).
    private func missingCharacter(_ id: CharacterID) throws(NoteTextError) -> CharacterID? {
        guard let index = replicaIndexes[id.replica] else { return id }
        guard id.counter < UInt64(nextCounters[Int(index)]) else { return id }
        let counters = leaves[Int(index)]
        guard Int(id.counter) < counters.count, counters[Int(id.counter)] != nil else {
            throw .invalid("\(id) is not a character")
        }
        return nil
    }

    static func dropFirst(_ count: Int, of operation: NoteOperation) -> NoteOperation {
        switch operation {
        case .insertion(var insertion):
            let scalars = insertion.text.unicodeScalars
            insertion.originLeft = CharacterID(replica: insertion.id.replica, counter: insertion.id.counter + UInt64(count) - 1)
            insertion.text = String(String.UnicodeScalarView(scalars.dropFirst(count)))
            insertion.id.counter += UInt64(count)
            return .insertion(insertion)
        case .deletion(var deletion):
            var skip = UInt64(count)
            var targets: [IDSpan] = []
            for var span in deletion.targets {
                if skip >= span.length {
                    skip -= span.length
                    continue
                }
                span.counter += skip
                span.length -= skip
                skip = 0
                targets.append(span)
            }
            deletion.targets = targets
            deletion.id.counter += UInt64(count)
            return .deletion(deletion)
        }
    }

    /// Applies an operation that `readiness` found ready.
    private func integrate(_ operation: NoteOperation) {
        switch operation {
        case .insertion(let insertion):
            let index = index(ofReplica: insertion.id.replica)
            let content = scalars.count
            scalars.append(contentsOf: insertion.text.unicodeScalars)
            let run = Run(replica: index, deleted: false, counter: Int(insertion.id.counter), length: scalars.count - content,
                          content: content, originLeft: packed(insertion.originLeft),
                          originRight: packed(insertion.originRight))
            insert(run, at: destination(of: run))
            nextCounters[Int(index)] = run.end
        case .deletion(let deletion):
            let index = index(ofReplica: deletion.id.replica)
            for span in deletion.targets { markDeleted(span) }
            nextCounters[Int(index)] = Int(deletion.id.counter + operation.length)
        }
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
