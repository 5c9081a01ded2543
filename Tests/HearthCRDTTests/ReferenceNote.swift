@testable import HearthCRDT

/// Docs/note-crdt.md done the slow, obvious way: one array element per
/// character, linear searches. The tree in `NoteText` must behave exactly
/// like this, down to the encoded bytes.
struct ReferenceNote {
    struct Character {
        var id: CharacterID
        var originLeft: CharacterID?
        var originRight: CharacterID?
        var scalar: Unicode.Scalar
        var deleted: Bool
    }

    let replica: UInt64
    var characters: [Character] = []
    var next: [UInt64: UInt64] = [:]
    var waiting: [NoteOperation] = []

    init(replica: UInt64) {
        self.replica = replica
    }

    var text: String {
        String(String.UnicodeScalarView(characters.filter { !$0.deleted }.map(\.scalar)))
    }

    func index(of id: CharacterID?) -> Int? {
        guard let id else { return nil }
        return characters.firstIndex { $0.id == id }
    }

    /// The raw index before which text inserted at visible `position` goes.
    func rawIndex(beforeVisible position: Int) -> Int {
        var remaining = position
        for (index, character) in characters.enumerated() where !character.deleted {
            if remaining == 0 { return index }
            remaining -= 1
        }
        return characters.count
    }

    mutating func insert(_ text: String, at position: Int) -> NoteOperation {
        let raw = rawIndex(beforeVisible: position)
        let counter = next[replica, default: 0]
        let originLeft = raw > 0 ? characters[raw - 1].id : nil
        let originRight = raw < characters.count ? characters[raw].id : nil
        let operation = NoteOperation.insertion(.init(id: CharacterID(replica: replica, counter: counter),
                                                      originLeft: originLeft, originRight: originRight, text: text))
        apply(operation)
        return operation
    }

    mutating func delete(at position: Int, length: Int) -> NoteOperation? {
        guard length > 0 else { return nil }
        var spans: [IDSpan] = []
        var seen = 0
        for character in characters where !character.deleted {
            if seen >= position, seen < position + length {
                if let last = spans.last, last.replica == character.id.replica, last.counter + last.length == character.id.counter {
                    spans[spans.count - 1].length += 1
                } else {
                    spans.append(IDSpan(replica: character.id.replica, counter: character.id.counter, length: 1))
                }
            }
            seen += 1
        }
        let operation = NoteOperation.deletion(.init(id: CharacterID(replica: replica, counter: next[replica, default: 0]), targets: spans))
        apply(operation)
        return operation
    }

    func isCharacter(_ id: CharacterID?) -> Bool {
        guard let id else { return true }
        return index(of: id) != nil
    }

    mutating func apply(_ operation: NoteOperation) {
        waiting.append(operation)
        var progressed = true
        while progressed {
            progressed = false
            for (position, candidate) in waiting.enumerated() {
                if tryApply(candidate) {
                    waiting.remove(at: position)
                    progressed = true
                    break
                }
            }
        }
    }

    /// Applies one operation if it is ready (or a duplicate); false to wait.
    private mutating func tryApply(_ operation: NoteOperation) -> Bool {
        let id = operation.id
        let have = next[id.replica, default: 0]
        if id.counter + operation.length <= have { return true }
        if id.counter > have { return false }
        let ready = have > id.counter ? NoteText.dropFirst(Int(have - id.counter), of: operation) : operation
        switch ready {
        case .insertion(let insertion):
            guard isCharacter(insertion.originLeft), isCharacter(insertion.originRight) else { return false }
            integrate(insertion)
        case .deletion(let deletion):
            for span in deletion.targets {
                for counter in span.counter..<span.counter + span.length
                where !isCharacter(CharacterID(replica: span.replica, counter: counter)) {
                    return false
                }
            }
            for span in deletion.targets {
                for counter in span.counter..<span.counter + span.length {
                    characters[index(of: CharacterID(replica: span.replica, counter: counter))!].deleted = true
                }
            }
        }
        next[id.replica] = ready.id.counter + ready.length
        return true
    }

    private mutating func integrate(_ insertion: NoteOperation.Insertion) {
        let left = index(of: insertion.originLeft) ?? -1
        let right = index(of: insertion.originRight) ?? characters.count
        var destination = left + 1
        var scanning = false
        var position = left + 1
        while true {
            if !scanning { destination = position }
            if position == characters.count || position == right { break }
            let other = characters[position]
            let otherLeft = index(of: other.originLeft) ?? -1
            let otherRight = index(of: other.originRight) ?? characters.count
            if otherLeft < left { break }
            if otherLeft == left {
                if otherRight < right {
                    scanning = true
                } else if otherRight == right {
                    if insertion.id.replica < other.id.replica { break }
                    scanning = false
                } else {
                    scanning = false
                }
            }
            position += 1
        }
        var new: [Character] = []
        for (offset, scalar) in insertion.text.unicodeScalars.enumerated() {
            let id = CharacterID(replica: insertion.id.replica, counter: insertion.id.counter + UInt64(offset))
            let originLeft = offset == 0 ? insertion.originLeft
                : CharacterID(replica: insertion.id.replica, counter: insertion.id.counter + UInt64(offset) - 1)
            new.append(Character(id: id, originLeft: originLeft, originRight: insertion.originRight, scalar: scalar, deleted: false))
        }
        characters.insert(contentsOf: new, at: destination)
    }

    /// Format 2, written straight from the spec's wording.
    func encodeState() -> [UInt8] {
        struct Span { var first: Character; var length: Int }
        var runs: [Span] = []
        for character in characters {
            if let last = runs.last {
                let lastID = CharacterID(replica: last.first.id.replica, counter: last.first.id.counter + UInt64(last.length) - 1)
                if character.id.replica == lastID.replica, character.id.counter == lastID.counter + 1,
                   character.originLeft == lastID, character.originRight == last.first.originRight,
                   character.deleted == last.first.deleted {
                    runs[runs.count - 1].length += 1
                    continue
                }
            }
            runs.append(Span(first: character, length: 1))
        }
        let table = next.filter { $0.value > 0 }.keys.sorted()
        var writer = ByteWriter()
        writer.byte(2)
        writer.varint(table.count)
        for id in table { writer.varint(id) }
        for id in table { writer.varint(next[id]!) }
        writer.varint(runs.count)
        var expected: [UInt64: Int] = [:]
        for (index, run) in runs.enumerated() {
            let id = run.first.id
            let previousLast = index > 0
                ? CharacterID(replica: runs[index - 1].first.id.replica,
                              counter: runs[index - 1].first.id.counter + UInt64(runs[index - 1].length) - 1) : nil
            let nextFirst = index + 1 < runs.count ? runs[index + 1].first.id : nil
            let leftIsPrevious = run.first.originLeft != nil && run.first.originLeft == previousLast
            let rightIsNext = run.first.originRight != nil && run.first.originRight == nextFirst
            var flags = run.first.deleted ? 1 : 0
            if run.first.originLeft != nil { flags |= 2 | (leftIsPrevious ? 8 : 0) }
            if run.first.originRight != nil { flags |= 4 | (rightIsNext ? 16 : 0) }
            let replicaIndex = table.firstIndex(of: id.replica)!
            writer.varint(UInt64(replicaIndex) << 5 | UInt64(flags))
            writer.zigzag(Int(id.counter) - expected[id.replica, default: 0])
            expected[id.replica] = Int(id.counter) + run.length
            writer.varint(run.length)
            if let origin = run.first.originLeft, !leftIsPrevious {
                writer.varint(table.firstIndex(of: origin.replica)!)
                writer.varint(origin.counter)
            }
            if let origin = run.first.originRight, !rightIsNext {
                writer.varint(table.firstIndex(of: origin.replica)!)
                writer.varint(origin.counter)
            }
        }
        writer.text(characters.filter { !$0.deleted }.map(\.scalar))
        return writer.bytes
    }
}
