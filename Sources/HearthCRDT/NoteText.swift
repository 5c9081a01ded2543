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

    // MARK: Remote edits

    /// Applies another replica's operation and returns what was applied, in
    /// order: nothing for a duplicate or one that waits; the operation
    /// (trimmed to its new part) and any waiting ones it released. What an
    /// operation depends on (its replica's earlier counters, the ids it
    /// names) must be here; if not, it waits (`waitForMissing`) or is
    /// refused. One that can never apply (it names a deletion's counter, its
    /// origin right is not after its origin left) is refused. A refused
    /// operation changes nothing.
    @discardableResult
    public func apply(_ operation: NoteOperation, waitForMissing: Bool = true) throws(NoteTextError) -> [NoteOperation] {
        let length = try Self.check(operation)
        let id = operation.id
        let have = UInt64(nextCounter(of: id.replica))
        if id.counter + length <= have { return [] }
        if let missing = firstMissing(operation, have: have) {
            if waitForMissing {
                wait(operation)
                return []
            }
            throw .notReady(missing)
        }
        let ready = have > id.counter ? Self.dropFirst(Int(have - id.counter), of: operation) : operation
        integrate(ready, after: try checkReferences(ready))
        var applied = [ready]
        applyPending(into: &applied)
        return applied
    }

    /// Checks what needs no document; returns the operation's length.
    static func check(_ operation: NoteOperation) throws(NoteTextError) -> UInt64 {
        let id = operation.id
        guard id.replica > 0, id.replica < ReplicaRange.limit else { throw .invalid("replica \(id.replica) is out of range") }
        guard id.counter < ReplicaRange.counterLimit else { throw .invalid("counter \(id.counter) is out of range") }
        var length: UInt64 = 0
        switch operation {
        case .insertion(let insertion):
            length = UInt64(insertion.text.unicodeScalars.count)
            guard length > 0 else { throw .invalid("an insertion of no characters") }
            try checkOrigin(insertion.originLeft, of: id)
            try checkOrigin(insertion.originRight, of: id)
        case .deletion(let deletion):
            guard !deletion.targets.isEmpty else { throw .invalid("a deletion of nothing") }
            for span in deletion.targets {
                guard span.replica > 0, span.replica < ReplicaRange.limit, span.length > 0,
                      span.counter < ReplicaRange.counterLimit, span.length <= ReplicaRange.counterLimit - span.counter
                else { throw .invalid("a deletion span out of range") }
                if span.replica == id.replica, span.counter + span.length > id.counter {
                    throw .invalid("a deletion targets its own or a later id")
                }
                length += span.length
                guard length <= ReplicaRange.counterLimit else { throw .invalid("a deletion span out of range") }
            }
        }
        guard id.counter <= ReplicaRange.counterLimit - length else { throw .invalid("counter \(id.counter) is out of range") }
        return length
    }

    private static func checkOrigin(_ origin: CharacterID?, of id: CharacterID) throws(NoteTextError) {
        guard let origin else { return }
        guard origin.replica > 0, origin.replica < ReplicaRange.limit, origin.counter < ReplicaRange.counterLimit else {
            throw .invalid("origin \(origin) is out of range")
        }
        // Its own characters cannot be its origins: it would never be ready.
        if origin.replica == id.replica, origin.counter >= id.counter {
            throw .invalid("an insertion names one of its own or a later id as an origin")
        }
    }

    /// The first id the operation needs that has not been applied: its
    /// replica's next counter, or an id it names. nil when it is ready.
    private func firstMissing(_ operation: NoteOperation, have: UInt64) -> CharacterID? {
        let id = operation.id
        if id.counter > have { return CharacterID(replica: id.replica, counter: have) }
        func applied(_ named: CharacterID) -> Bool { named.counter < UInt64(nextCounter(of: named.replica)) }
        switch operation {
        case .insertion(let insertion):
            // A trimmed insertion's origin left is its own previous character.
            if id.counter >= have, let left = insertion.originLeft, !applied(left) { return left }
            if let right = insertion.originRight, !applied(right) { return right }
        case .deletion(let deletion):
            var skip = have - id.counter
            for span in deletion.targets {
                if skip >= span.length {
                    skip -= span.length
                    continue
                }
                skip = 0
                let last = CharacterID(replica: span.replica, counter: span.counter + span.length - 1)
                if !applied(last) { return last }
            }
        }
        return nil
    }

    /// Ids an operation names must be characters (not a deletion's
    /// counters), and an insertion's origin right must follow its origin left.
    /// Returns where an insertion's origin left is (nil for none, or for a
    /// deletion), which integrating it needs next.
    private func checkReferences(_ operation: NoteOperation) throws(NoteTextError) -> TextCursor?? {
        switch operation {
        case .insertion(let insertion):
            var leftCursor: TextCursor?
            if let originLeft = insertion.originLeft {
                guard let found = cursor(at: packed(originLeft)) else { throw .invalid("\(originLeft) is not a character") }
                leftCursor = found
            }
            guard let originRight = insertion.originRight else { return .some(leftCursor) }
            let right = packed(originRight)
            guard let rightCursor = cursor(at: right) else { throw .invalid("\(originRight) is not a character") }
            guard let leftCursor else { return .some(nil) }
            // The usual case: the origins are neighbours.
            var next = leftCursor
            next.advance(by: 1)
            if !next.isAtEnd, next.run.id(at: next.offset) == right { return .some(leftCursor) }
            guard rawPosition(of: rightCursor) > rawPosition(of: leftCursor) else {
                throw .invalid("an insertion's origin right is not after its origin left")
            }
            return .some(leftCursor)
        case .deletion(let deletion):
            for span in deletion.targets {
                guard let index = replicaIndexes[span.replica] else { throw .invalid("\(span.replica) is unknown") }
                let counters = leaves[Int(index)]
                for counter in span.counter..<span.counter + span.length
                where Int(counter) >= counters.count || counters[Int(counter)] == nil {
                    throw .invalid("\(CharacterID(replica: span.replica, counter: counter)) is not a character")
                }
            }
            return .some(nil)
        }
    }

    /// Keeps an operation until what it needs arrives: per replica, in
    /// counter order; a resent one replaces a shorter one at the same counter.
    private func wait(_ operation: NoteOperation) {
        let replica = operation.id.replica
        let position = pending.firstIndex { $0.replica == replica } ?? {
            pending.append((replica, []))
            return pending.count - 1
        }()
        var list = pending[position].operations
        var index = list.count
        while index > 0, list[index - 1].id.counter > operation.id.counter { index -= 1 }
        if index > 0, list[index - 1].id.counter == operation.id.counter {
            if operation.length > list[index - 1].length { list[index - 1] = operation }
        } else {
            list.insert(operation, at: index)
        }
        pending[position].operations = list
    }

    /// Applies every waiting operation that has become ready, replica by
    /// replica in the order they first waited, until none is left ready.
    /// One that turns out never to be able to apply is dropped.
    private func applyPending(into applied: inout [NoteOperation]) {
        var progressed = true
        while progressed {
            progressed = false
            var position = 0
            while position < pending.count {
                let replica = pending[position].replica
                while let operation = pending[position].operations.first {
                    let have = UInt64(nextCounter(of: replica))
                    if operation.id.counter + operation.length <= have {
                        pending[position].operations.removeFirst()
                        continue
                    }
                    if firstMissing(operation, have: have) != nil { break }
                    pending[position].operations.removeFirst()
                    let ready = have > operation.id.counter ? Self.dropFirst(Int(have - operation.id.counter), of: operation) : operation
                    guard let left = try? checkReferences(ready) else { continue }
                    integrate(ready, after: left)
                    applied.append(ready)
                    progressed = true
                }
                if pending[position].operations.isEmpty {
                    pending.remove(at: position)
                } else {
                    position += 1
                }
            }
        }
    }

    /// The operation without its first `count` characters (or targets): the
    /// part left to apply when the rest already is. A trimmed insertion's
    /// first character takes the one before it as its origin left.
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

    /// Applies an operation found ready and checked; `left` is where an
    /// insertion's origin left is.
    private func integrate(_ operation: NoteOperation, after left: TextCursor??) {
        switch operation {
        case .insertion(let insertion):
            let index = index(ofReplica: insertion.id.replica)
            let content = scalars.count
            scalars.append(contentsOf: insertion.text.unicodeScalars)
            let run = Run(replica: index, deleted: false, counter: Int(insertion.id.counter), length: scalars.count - content,
                          content: content, originLeft: packed(insertion.originLeft),
                          originRight: packed(insertion.originRight))
            insert(run, at: destination(of: run, afterOriginLeft: left ?? nil))
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
