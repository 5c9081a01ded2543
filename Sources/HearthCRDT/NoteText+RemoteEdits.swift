// Edits from other replicas: checked, applied in causal order (held until
// what they name arrives), and integrated where the CRDT says they go.
extension NoteText {
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
}
