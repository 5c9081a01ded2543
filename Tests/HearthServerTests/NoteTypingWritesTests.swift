import Foundation
import GRDB
import HearthHubTestSupport
import HearthCore
import HearthCRDT
@testable import HearthEditing
@testable import HearthStore
import HearthTestSupport
import Testing

/// What typing costs the disk (issue 41): a second of typing goes in one
/// transaction that appends its operations; the note's row with its whole
/// text is written when typing goes quiet, not with every round.
@Suite(.serialized, .timeLimit(.minutes(2))) struct NoteTypingWritesTests {
    struct Stored: Equatable {
        var text: String
        var textUpdateSeq: Int64
        var lastSeq: Int64
        /// Transactions that stored typing: the rows of one share its time.
        var rounds: Int
    }

    static func stored(_ store: HearthStore, _ id: UUID) async throws -> Stored {
        try await store.pool.read { db in
            let row = try #require(try Row.fetchOne(db, sql: """
                SELECT text, textUpdateSeq,
                       (SELECT max(seq) FROM note_updates WHERE noteId = notes.id) AS lastSeq,
                       (SELECT count(DISTINCT time) FROM note_updates WHERE noteId = notes.id) AS rounds
                FROM notes WHERE id = ?
                """, arguments: [id.text]))
            return Stored(text: row["text"], textUpdateSeq: row["textUpdateSeq"], lastSeq: row["lastSeq"] ?? 0, rounds: row["rounds"])
        }
    }

    @Test func aTypistsSecondsGoInOneRoundEachAndTheTextWhenTypingGoesQuiet() async throws {
        try await RunningHub.with { port, store, _, token in
            let admin = try #require(try await store.people().first)
            let note = try await store.createNote(as: .noteMaker(admin.id), title: "", text: "Zakupy\n",
                                                  visibility: .shared, pinned: false, by: "t")
            let typist = BackgroundEditor(port: port, token: token, noteId: note.id)
            let text = try await typist.caughtUp()
            // Given a typist at 20 keystrokes a second for 2.5 s, under the first line
            let words = "mleko chleb masło ser pomidory jajka kawa "
            let began = ContinuousClock.now
            var last: NoteOperation?
            for (index, character) in words.enumerated() {
                try? await Task.sleep(until: began + .milliseconds(50 * index))
                let operation = try text.insert(String(character), at: text.count)
                typist.send(.operations(NoteOperation.encode([operation])))
                last = operation
            }
            let typed = try #require(last)
            let acknowledged = await typist.heard.waitFor {
                if case .acknowledged(let stored) = $0 { stored[typed.id.replica] == typed.id.counter + 1 } else { false }
            }
            #expect(acknowledged, "every keystroke is acknowledged")
            // Then the keystrokes were stored in about one round a second, not one each…
            let whileTyping = try await Self.stored(store, note.id)
            let seconds = Int((ContinuousClock.now - began) / .seconds(1)) + 1
            #expect(whileTyping.rounds <= seconds + 1, "\(words.count) keystrokes over \(seconds) s in \(whileTyping.rounds) rounds")
            #expect(whileTyping.rounds >= 2)
            // …the note's row was written with the first round only (the first line did not change)…
            #expect(whileTyping.textUpdateSeq < whileTyping.lastSeq, "the text is not rewritten with every round")
            try await expectEqual(store.note(id: note.id)?.text, "Zakupy\n" + words, "a reader has every acknowledged keystroke")
            // …and once typing has been quiet for a while, the text is stored with all of it.
            try await Task.sleep(for: NoteSession.quietInterval + .seconds(1))
            let quiet = try await Self.stored(store, note.id)
            expectEqual(quiet.text, "Zakupy\n" + words)
            expectEqual(quiet.textUpdateSeq, quiet.lastSeq)
            try await expectEqual(store.searchNotes("pomidory", visibleTo: .init(personId: admin.id, role: .admin)).map(\.note.id), [note.id])
            _ = try await typist.leave()
        }
    }

    @Test func aRoundIsStoredAsOneRowForEachRunOfOneTypistsKeystrokes() throws {
        let ania = NoteText(replica: 5), ola = NoteText(replica: 9)
        var typed: [NoteOperation] = []
        for character in "mle" { typed.append(try ania.insert(String(character), at: ania.count)) }
        let olas = try ola.insert("X", at: 0)
        for operation in typed { _ = try ola.apply(operation, waitForMissing: false) }
        typed.append(olas)
        typed.append(try ania.insert("ko", at: ania.count))
        typed.append(try #require(try ania.delete(at: 0, length: 1)))

        let rows = NoteSession.rows(of: typed)

        // Ania's three keystrokes, Ola's, then Ania's next two operations (consecutive again).
        expectEqual(rows.map(\.replica), [5, 9, 5])
        expectEqual(rows.map(\.counter), [0, 0, 3])
        expectEqual(rows.map(\.length), [3, 1, 3])
        let decoded = try rows.flatMap { try NoteOperation.decode($0.bytes) }
        expectEqual(decoded.map(\.id), typed.map(\.id))
        // Stored rows replay to the same text.
        let replay = NoteText(replica: 11)
        for row in rows { for operation in try NoteOperation.decode(row.bytes) { _ = try replay.apply(operation, waitForMissing: false) } }
        let direct = NoteText(replica: 12)
        for operation in typed { _ = try direct.apply(operation, waitForMissing: false) }
        expectEqual(replay.text, direct.text)
        expectEqual(replay.encodeState(), direct.encodeState())
    }
}
