import HearthTestSupport
import Testing
@testable import HearthCRDT

@Suite struct EncodingTests {
    /// A note three people edited, with tombstones, emoji and Polish letters.
    static func editedNote(seed: UInt64) throws -> (NoteText, [NoteOperation]) {
        var random = SeededRandom(seed: seed)
        var editors = [Editor(replica: 3), Editor(replica: 900_719_925_474_099), Editor(replica: 12)]
        for _ in 0..<300 {
            let who = Int.random(in: 0..<3, using: &random)
            if Bool.random(using: &random) {
                try editors[who].editRandomly(using: &random)
            } else {
                try editors[(who + 1) % 3].receive(editors[who].log)
            }
        }
        for from in 0..<3 { try editors[0].receive(editors[from].log) }
        return (editors[0].note, editors[0].log)
    }

    @Test func aBatchDecodesToTheSameOperations() throws {
        let (_, log) = try Self.editedNote(seed: 1)
        try expectEqual(NoteOperation.decode(NoteOperation.encode(log)), log)
    }

    @Test(arguments: 1...4)
    func aStateDecodesToTheSameNoteAndEncodesToTheSameBytes(seed: UInt64) throws {
        let (note, log) = try Self.editedNote(seed: seed)
        let state = note.encodeState()
        let reopened = try NoteText.decodeState(state, replica: 77)
        expectEqual(reopened.text, note.text)
        expectEqual(reopened.versionVector, note.versionVector)
        expectEqual(reopened.encodeState(), state)

        // The reopened copy keeps working: it edits, and it merges with an
        // editor that kept the full history.
        let mine = try reopened.insert("👵🏼 ", at: 0)
        let other = NoteText(replica: 5)
        for operation in log { try other.apply(operation) }
        let theirs = try other.insert("!", at: other.count)
        try reopened.apply(theirs)
        try other.apply(mine)
        #expect(reopened.text.hasPrefix("👵🏼 "))
        #expect(reopened.text.hasSuffix("!"))
        expectEqual(other.text, reopened.text)
    }

    @Test func aNoteTypedByOnePersonIsSmall() throws {
        let note = NoteText(replica: 1)
        for (offset, character) in "Kupić: mleko, chleb, masło".enumerated() {
            try note.insert(String(character), at: offset)
        }
        try note.delete(at: 0, length: 7)
        let state = note.encodeState()
        // One typed run split into a deleted part and a visible part: the
        // header, two runs and the text.
        #expect(state.count < 40, "\(state.count) bytes")
        try expectEqual(NoteText.decodeState(state, replica: 2).text, "mleko, chleb, masło")
    }

    @Test func garbageIsRefusedAndNeverCrashes() throws {
        let (note, log) = try Self.editedNote(seed: 9)
        let samples = [note.encodeState(), NoteOperation.encode(log)]
        var random = SeededRandom(seed: 42)
        for sample in samples {
            for cut in [0, 1, 2, sample.count / 2, sample.count - 1] {
                #expect(throws: NoteTextError.self) { try NoteText.decodeState(Array(sample.prefix(cut)), replica: 1) }
                #expect(throws: NoteTextError.self) { try NoteOperation.decode(Array(sample.prefix(cut))) }
            }
            #expect(throws: NoteTextError.self) { try NoteOperation.decode(sample + [0]) }
            for _ in 0..<2000 {
                var mutated = sample
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    mutated[Int.random(in: 0..<mutated.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
                }
                // Either outcome is fine; crashing or hanging is not.
                _ = try? NoteText.decodeState(mutated, replica: 1)
                if let operations = try? NoteOperation.decode(mutated) {
                    let target = NoteText(replica: 99)
                    for operation in operations { try? target.apply(operation) }
                }
            }
        }
        #expect(throws: NoteTextError.malformed("a number longer than 8 bytes")) {
            try NoteOperation.decode([1, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01])
        }
    }

    /// A 1 MiB message that claims a million operations (or entries, runs,
    /// replicas) is refused before anything is read or set aside for them:
    /// no operation fits in fewer than 5 bytes.
    @Test func aCountTheBytesCannotHoldIsRefusedAtOnce() throws {
        var claim = ByteWriter()
        claim.byte(NoteOperation.batchFormat)
        claim.varint(1_000_000)
        let message = claim.bytes + [UInt8](repeating: 0, count: 1 << 20)
        #expect(throws: NoteTextError.malformed("more operations than the bytes hold")) { try NoteOperation.decode(message) }
        // Exactly as many as could fit still reads on (and fails on the zeros' meaning, not their number)
        var fits = ByteWriter()
        fits.byte(NoteOperation.batchFormat)
        fits.varint(2)
        #expect(throws: NoteTextError.malformed("replica 0")) { try NoteOperation.decode(fits.bytes + [UInt8](repeating: 0, count: 10)) }
        var entries = ByteWriter()
        entries.varint(600_000)
        #expect(throws: NoteTextError.malformed("more entries than the bytes hold")) {
            try VersionVector.decode(entries.bytes + [UInt8](repeating: 1, count: 1 << 20))
        }
    }

    @Test func anOperationFromTheFutureIsRefusedWhenWaitingIsNotAllowed() throws {
        let hub = NoteText(replica: 1)
        try hub.insert("tea", at: 0)
        let before = hub.encodeState()
        let skipping = NoteOperation.insertion(.init(id: CharacterID(replica: 5, counter: 3), originLeft: nil, originRight: nil, text: "x"))
        #expect(throws: NoteTextError.notReady(CharacterID(replica: 5, counter: 0))) { try hub.apply(skipping, waitForMissing: false) }
        let unknownOrigin = NoteOperation.insertion(.init(id: CharacterID(replica: 5, counter: 0),
                                                         originLeft: CharacterID(replica: 1, counter: 10), originRight: nil, text: "x"))
        #expect(throws: NoteTextError.notReady(CharacterID(replica: 1, counter: 10))) { try hub.apply(unknownOrigin, waitForMissing: false) }
        let deletion = try hub.delete(at: 0, length: 1)!
        let originOnADeletion = NoteOperation.insertion(.init(id: CharacterID(replica: 5, counter: 0),
                                                             originLeft: deletion.id, originRight: nil, text: "x"))
        #expect(throws: NoteTextError.invalid("\(deletion.id) is not a character")) { try hub.apply(originOnADeletion) }
        try hub.insert("t", at: 0)
        expectEqual(hub.text, "tea")
        expectEqual(hub.pendingCount, 0)
        #expect(before.count > 0)
    }

    @Test func positionsOutsideTheTextAreRefused() throws {
        let note = NoteText(replica: 1)
        try note.insert("ab", at: 0)
        #expect(throws: NoteTextError.outOfRange(position: 3, length: 2)) { try note.insert("x", at: 3) }
        #expect(throws: NoteTextError.self) { try note.delete(at: 1, length: 2) }
        #expect(throws: NoteTextError.self) { try note.insert("x", at: -1) }
        expectEqual(note.text, "ab")
    }
}
