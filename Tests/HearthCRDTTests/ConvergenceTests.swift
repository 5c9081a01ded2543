import HearthTestSupport
import Testing
@testable import HearthCRDT

/// Text people type: Latin, Polish letters, an emoji outside the BMP, new lines.
let typedPieces = ["a", "b", "c", " ", "ż", "ó", "ł", "ć", "ę", "👵🏼", "\n", "[ ] ", "mleko", "Zażółć"]

/// One replica under test, with the reference it must match and the log of
/// every operation it has seen (to pass on).
struct Editor {
    var note: NoteText
    var reference: ReferenceNote
    var log: [NoteOperation] = []

    init(replica: UInt64) {
        note = NoteText(replica: replica)
        reference = ReferenceNote(replica: replica)
    }

    mutating func editRandomly(using random: inout SeededRandom) throws {
        if note.count > 0, Int.random(in: 0..<3, using: &random) == 0 {
            let position = Int.random(in: 0..<note.count, using: &random)
            let length = Int.random(in: 1...min(8, note.count - position), using: &random)
            let operation = try note.delete(at: position, length: length)
            expectEqual(operation, reference.delete(at: position, length: length))
            log.append(operation!)
        } else {
            let position = Int.random(in: 0...note.count, using: &random)
            let text = typedPieces.randomElement(using: &random)!
            let operation = try note.insert(text, at: position)
            expectEqual(operation, reference.insert(text, at: position))
            log.append(operation)
        }
    }

    mutating func receive(_ operations: [NoteOperation]) throws {
        // Through the wire format, as a real replica would get them.
        for operation in try NoteOperation.decode(NoteOperation.encode(operations)) {
            try note.apply(operation)
            reference.apply(operation)
            if !log.contains(operation) { log.append(operation) }
        }
    }
}

@Suite struct ConvergenceTests {
    @Test(arguments: 1...6)
    func oneReplicaMatchesTheReferenceDownToTheBytes(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        var editor = Editor(replica: 7)
        for step in 0..<1500 {
            try editor.editRandomly(using: &random)
            if step % 100 == 0 { expectEqual(editor.note.text, editor.reference.text, "seed \(seed) step \(step)") }
        }
        expectEqual(editor.note.text, editor.reference.text)
        expectEqual(editor.note.encodeState(), editor.reference.encodeState(), "seed \(seed)")
    }

    @Test(arguments: 1...25)
    func concurrentReplicasConvergeWhateverTheDeliveryOrder(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let count = Int.random(in: 3...8, using: &random)
        var editors = (0..<count).map { _ in Editor(replica: UInt64.random(in: 1..<ReplicaRange.limit, using: &random)) }
        for _ in 0..<200 {
            let who = Int.random(in: 0..<count, using: &random)
            if Int.random(in: 0..<4, using: &random) > 0 {
                try editors[who].editRandomly(using: &random)
            } else {
                // A partial, shuffled, sometimes duplicated delivery, as after a
                // dropped connection and a reconnect that sends everything again.
                let to = Int.random(in: 0..<count, using: &random)
                guard to != who else { continue }
                var batch = editors[who].log.filter { _ in Bool.random(using: &random) }
                batch += batch.prefix(Int.random(in: 0...2, using: &random))
                batch.shuffle(using: &random)
                try editors[to].receive(batch)
            }
        }
        for from in 0..<count {
            for to in 0..<count where to != from {
                try editors[to].receive(editors[from].log.shuffled(using: &random))
            }
        }
        let text = editors[0].note.text
        let state = editors[0].note.encodeState()
        for editor in editors {
            expectEqual(editor.note.pendingCount, 0)
            expectEqual(editor.note.text, text, "seed \(seed)")
            expectEqual(editor.reference.text, text, "seed \(seed)")
            expectEqual(editor.note.encodeState(), state, "seed \(seed)")
            expectEqual(editor.reference.encodeState(), state, "seed \(seed)")
        }
    }

    @Test func runsTypedAtTheSamePlaceDoNotInterleave() throws {
        for start in ["", "shopping: ", "Zażółć"] {
            let first = NoteText(replica: 1), second = NoteText(replica: 2)
            var shared: [NoteOperation] = []
            if !start.isEmpty { shared.append(try first.insert(start, at: 0)) }
            for operation in shared { try second.apply(operation) }
            let place = start.unicodeScalars.count
            var fromFirst: [NoteOperation] = [], fromSecond: [NoteOperation] = []
            for (offset, (a, b)) in zip("abc", "xyz").enumerated() {
                fromFirst.append(try first.insert(String(a), at: place + offset))
                fromSecond.append(try second.insert(String(b), at: place + offset))
            }
            for operation in fromSecond { try first.apply(operation) }
            for operation in fromFirst.reversed() { try second.apply(operation) }
            expectEqual(first.text, start + "abcxyz")
            expectEqual(second.text, first.text)
        }
    }

    @Test func textInsertedIntoAConcurrentlyDeletedStretchSurvives() throws {
        let first = NoteText(replica: 1), second = NoteText(replica: 2)
        try second.apply(try first.insert("buy bread today", at: 0))
        let deletion = try first.delete(at: 4, length: 6)!  // "bread "
        let insertion = try second.insert("rye ", at: 4)
        try first.apply(insertion)
        try second.apply(deletion)
        expectEqual(first.text, "buy rye today")
        expectEqual(second.text, first.text)
    }

    @Test func deletingTheSameTextTwiceConcurrentlyDeletesItOnce() throws {
        let first = NoteText(replica: 1), second = NoteText(replica: 2)
        try second.apply(try first.insert("milk, eggs", at: 0))
        let one = try first.delete(at: 4, length: 6)!
        let other = try second.delete(at: 3, length: 7)!
        try first.apply(other)
        try second.apply(one)
        expectEqual(first.text, "mil")
        expectEqual(second.text, "mil")
        expectEqual(first.versionVector, second.versionVector)
    }
}
