/// A whole note in format 2 of Docs/note-crdt.md: the snapshot a note is
/// opened from in one read, and what a replica far behind catches up with.
extension NoteText {
    static let stateFormat: UInt8 = 2

    /// One run as the encoding sees it: maximal, whatever splits the tree made.
    private struct EncodedRun {
        var replica: Int32
        var deleted: Bool
        var counter: Int
        var length: Int
        var originLeft: PackedID
        var originRight: PackedID

        func continues(_ previous: EncodedRun) -> Bool {
            replica == previous.replica && counter == previous.counter + previous.length && deleted == previous.deleted
                && originLeft == PackedID(replica: previous.replica, counter: previous.counter + previous.length - 1)
                && originRight == previous.originRight
        }
    }

    public func encodeState() -> [UInt8] {
        var runs: [EncodedRun] = []
        var visible = String.UnicodeScalarView()
        var leaf: RunNode? = firstLeaf
        while let current = leaf {
            for run in current.runs {
                let next = EncodedRun(replica: run.replica, deleted: run.deleted, counter: run.counter, length: run.length,
                                      originLeft: run.originLeft, originRight: run.originRight)
                if let last = runs.last, next.continues(last) {
                    runs[runs.count - 1].length += next.length
                } else {
                    runs.append(next)
                }
                if !run.deleted { visible.append(contentsOf: scalars[run.content..<run.content + run.length]) }
            }
            leaf = current.nextLeaf
        }

        let table = replicaIDs.indices.filter { nextCounters[$0] > 0 }.sorted { replicaIDs[$0] < replicaIDs[$1] }
        var position = [Int](repeating: -1, count: replicaIDs.count)
        for (encoded, local) in table.enumerated() { position[local] = encoded }

        var writer = ByteWriter()
        writer.byte(Self.stateFormat)
        writer.varint(table.count)
        for local in table { writer.varint(replicaIDs[local]) }
        for local in table { writer.varint(nextCounters[local]) }
        writer.varint(runs.count)
        var expected = [Int](repeating: 0, count: table.count)
        for (index, run) in runs.enumerated() {
            let replica = position[Int(run.replica)]
            let previous = index > 0 ? runs[index - 1] : nil
            let next = index + 1 < runs.count ? runs[index + 1] : nil
            let leftIsPrevious = previous.map { run.originLeft == PackedID(replica: $0.replica, counter: $0.counter + $0.length - 1) } ?? false
            let rightIsNext = next.map { run.originRight == PackedID(replica: $0.replica, counter: $0.counter) } ?? false
            var flags = run.deleted ? 1 : 0
            if !run.originLeft.isNone { flags |= 2 | (leftIsPrevious ? 8 : 0) }
            if !run.originRight.isNone { flags |= 4 | (rightIsNext ? 16 : 0) }
            writer.varint(UInt64(replica) << 5 | UInt64(flags))
            writer.zigzag(run.counter - expected[replica])
            expected[replica] = run.counter + run.length
            writer.varint(run.length)
            if !run.originLeft.isNone, !leftIsPrevious {
                writer.varint(position[Int(run.originLeft.replica)])
                writer.varint(run.originLeft.counter)
            }
            if !run.originRight.isNone, !rightIsNext {
                writer.varint(position[Int(run.originRight.replica)])
                writer.varint(run.originRight.counter)
            }
        }
        writer.text(visible)
        return writer.bytes
    }

    /// A replica `replica` holding the note encoded in `bytes`.
    public static func decodeState(_ bytes: [UInt8], replica: UInt64) throws(NoteTextError) -> NoteText {
        var reader = ByteReader(bytes)
        guard try reader.byte() == stateFormat else { throw .malformed("not a note state") }
        let (ids, next) = try readReplicas(&reader)
        let decoded = try readRuns(&reader, next: next)
        let visible = try reader.text()
        guard reader.isAtEnd else { throw .malformed("bytes left over") }
        guard visible.count == decoded.reduce(0, { $0 + ($1.deleted ? 0 : $1.length) }) else {
            throw .malformed("the text does not match the runs")
        }
        try checkOrigins(of: decoded.map { ($0.replica, $0.counter, $0.length, $0.originLeft, $0.originRight) },
                         replicaCount: ids.count)
        if let first = decoded.first, first.leftIsPrevious { throw .malformed("the first run's origin left cannot be the previous character") }
        if let last = decoded.last, last.rightIsNext { throw .malformed("the last run's origin right cannot be the next character") }
        return try build(replica: replica, ids: ids, next: next, runs: decoded, visible: visible)
    }

    /// One run as the state holds it: replicas as indexes into its table.
    private struct DecodedRun {
        var replica: Int, deleted: Bool, counter: Int, length: Int
        var originLeft: (Int, Int)?, originRight: (Int, Int)?
        var leftIsPrevious: Bool, rightIsNext: Bool
    }

    /// The replica table: ids, ascending, then each one's next counter.
    private static func readReplicas(_ reader: inout ByteReader) throws(NoteTextError) -> (ids: [UInt64], next: [Int]) {
        // Each replica is an id and a version entry, a byte each at least.
        let replicaCount = try reader.count(eachAtLeast: 2, of: "replicas")
        var ids: [UInt64] = []
        for _ in 0..<replicaCount {
            let id = try reader.varint()
            guard id > 0, ids.last.map({ $0 < id }) ?? true else { throw .malformed("replica ids not ascending") }
            ids.append(id)
        }
        var next: [Int] = []
        for _ in 0..<replicaCount {
            let entry = try reader.varint()
            // A replica with nothing applied is not listed at all.
            guard entry > 0, entry <= ReplicaRange.counterLimit else { throw .malformed("a version vector entry out of range") }
            next.append(Int(entry))
        }
        return (ids, next)
    }

    private static func readRuns(_ reader: inout ByteReader, next: [Int]) throws(NoteTextError) -> [DecodedRun] {
        let replicaCount = next.count
        // A run is a header, a counter step and a length, a byte each at least.
        let runCount = try reader.count(eachAtLeast: 3, of: "runs")
        var decoded: [DecodedRun] = []
        decoded.reserveCapacity(runCount)
        var expected = [Int](repeating: 0, count: replicaCount)
        for _ in 0..<runCount {
            let header = try reader.varint()
            let flags = Int(header & 31)
            let replica = Int(header >> 5)
            guard replica < replicaCount else { throw .malformed("a replica index outside the table") }
            let counter = expected[replica] + (try reader.zigzag())
            let length = try reader.count()
            guard length > 0 else { throw .malformed("an empty run") }
            guard counter >= 0, counter + length <= next[replica] else { throw .malformed("a run beyond its replica's version") }
            expected[replica] = counter + length
            if flags & 8 != 0, flags & 2 == 0 { throw .malformed("origin flags disagree") }
            if flags & 16 != 0, flags & 4 == 0 { throw .malformed("origin flags disagree") }
            func origin() throws(NoteTextError) -> (Int, Int) {
                let index = try reader.count()
                guard index < replicaCount else { throw .malformed("an origin's replica index outside the table") }
                return (index, try reader.count())
            }
            let originLeft = flags & 2 != 0 && flags & 8 == 0 ? try origin() : nil
            let originRight = flags & 4 != 0 && flags & 16 == 0 ? try origin() : nil
            decoded.append(DecodedRun(replica: replica, deleted: flags & 1 != 0, counter: counter, length: length,
                                      originLeft: originLeft, originRight: originRight,
                                      leftIsPrevious: flags & 8 != 0, rightIsNext: flags & 16 != 0))
        }
        return decoded
    }

    /// The replica holding the checked runs, in order.
    private static func build(replica: UInt64, ids: [UInt64], next: [Int], runs decoded: [DecodedRun],
                              visible: [Unicode.Scalar]) throws(NoteTextError) -> NoteText {
        let note = NoteText(replica: replica)
        let locals = ids.map { note.index(ofReplica: $0) }
        for index in ids.indices { note.nextCounters[Int(locals[index])] = next[index] }
        note.scalars.append(contentsOf: visible)
        var content = 0
        var cursor = note.endCursor()
        for (index, run) in decoded.enumerated() {
            var originLeft = PackedID.none, originRight = PackedID.none
            if run.leftIsPrevious {
                let previous = decoded[index - 1]
                originLeft = PackedID(replica: locals[previous.replica], counter: previous.counter + previous.length - 1)
            } else if let (replica, counter) = run.originLeft {
                originLeft = PackedID(replica: locals[replica], counter: counter)
            }
            if run.rightIsNext {
                let following = decoded[index + 1]
                originRight = PackedID(replica: locals[following.replica], counter: following.counter)
            } else if let (replica, counter) = run.originRight {
                originRight = PackedID(replica: locals[replica], counter: counter)
            }
            let local = locals[run.replica]
            let known = note.leaves[Int(local)]
            if run.counter < known.count {
                for counter in run.counter..<min(run.counter + run.length, known.count) where known[counter] != nil {
                    throw .malformed("a character appears twice")
                }
            }
            let stored = Run(replica: local, deleted: run.deleted, counter: run.counter, length: run.length,
                             content: run.deleted ? -1 : content, originLeft: originLeft, originRight: originRight)
            if !run.deleted { content += run.length }
            note.insert(stored, at: cursor)
            cursor = note.endCursor()
        }
        return note
    }

    /// Refuses a state whose explicit origins name no character of it, put
    /// an origin left after its run or an origin right before it, or whose
    /// runs hold one id twice. (Flagged origins are right by construction.)
    private static func checkOrigins(
        of runs: [(replica: Int, counter: Int, length: Int, originLeft: (Int, Int)?, originRight: (Int, Int)?)],
        replicaCount: Int
    ) throws(NoteTextError) {
        var placed = [[(counter: Int, length: Int, raw: Int)]](repeating: [], count: replicaCount)
        var raw = 0
        for run in runs {
            placed[run.replica].append((run.counter, run.length, raw))
            raw += run.length
        }
        for index in placed.indices {
            placed[index].sort { $0.counter < $1.counter }
            for (earlier, later) in zip(placed[index], placed[index].dropFirst()) where later.counter < earlier.counter + earlier.length {
                throw .malformed("a character appears twice")
            }
        }
        func position(_ replica: Int, _ counter: Int) -> Int? {
            let list = placed[replica]
            var low = 0, high = list.count
            while low < high {
                let middle = (low + high) / 2
                if list[middle].counter <= counter { low = middle + 1 } else { high = middle }
            }
            guard low > 0, counter < list[low - 1].counter + list[low - 1].length else { return nil }
            return list[low - 1].raw + counter - list[low - 1].counter
        }
        raw = 0
        for run in runs {
            if let (replica, counter) = run.originLeft {
                guard let left = position(replica, counter), left < raw else {
                    throw .malformed("an origin left that is not a character before its run")
                }
            }
            if let (replica, counter) = run.originRight {
                guard let right = position(replica, counter), right >= raw + run.length else {
                    throw .malformed("an origin right that is not a character after its run")
                }
            }
            raw += run.length
        }
    }

    /// After the last character.
    func endCursor() -> TextCursor {
        var node = root
        while !node.isLeaf { node = node.children[node.children.count - 1] }
        return TextCursor(leaf: node, runIndex: node.runs.count, offset: 0)
    }
}
