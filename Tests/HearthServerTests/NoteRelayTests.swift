import Foundation
import GRDB
import HearthHubTestSupport
import HearthCore
import HearthCRDT
import HearthEditing
@testable import HearthStore
import HearthSocketClient
import Logging
import NIOCore
import Testing
import HearthTestSupport

/// An editor connected in the background: what the hub sends is collected,
/// what the test gives it is sent, and it leaves when told to or closed.
final class BackgroundEditor: Sendable {
    let heard = Heard()
    private let outgoing: AsyncStream<NoteEditMessage?>.Continuation
    private let connection: Task<WebSocketCloseFrame?, any Error>

    actor Heard {
        private(set) var messages: [NoteEditMessage] = []
        private(set) var ended = false
        func add(_ message: NoteEditMessage) { messages.append(message) }
        func end() { ended = true }

        /// Waits up to five seconds for the hub to close the connection.
        func waitForEnd() async {
            let deadline = ContinuousClock.now + .seconds(5)
            while !ended, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(5)) }
        }

        /// Waits up to `limit` for a message `matches`; whether one came.
        func waitFor(within limit: Duration = .seconds(5), _ matches: (NoteEditMessage) -> Bool) async -> Bool {
            let deadline = ContinuousClock.now + limit
            while !messages.contains(where: matches) {
                guard ContinuousClock.now < deadline else { return false }
                try? await Task.sleep(for: .milliseconds(5))
            }
            return true
        }
    }

    init(port: Int, token: String, noteId: UUID) {
        let (outgoing, continuation) = AsyncStream.makeStream(of: NoteEditMessage?.self)
        self.outgoing = continuation
        let heard = self.heard
        connection = Task {
            try await HubWebSocket.connect(
                url: "ws://127.0.0.1:\(port)/api/v1/notes/\(noteId.text)/edit",
                configuration: .init(maxFrameSize: 1 << 20, additionalHeaders: [.authorization: "Bearer \(token)"]),
                logger: Logger(label: "editor")
            ) { inbound, outbound, _ in
                try await outbound.write(.binary(ByteBuffer(bytes: NoteEditMessage.hello(VersionVector()).encoded())))
                try await withThrowingTaskGroup(of: Void.self) { tasks in
                    tasks.addTask {
                        for try await message in inbound.messages(maxSize: 1 << 20) {
                            guard case .binary(let buffer) = message else { continue }
                            await heard.add(try NoteEditMessage.decode(Array(buffer.readableBytesView)))
                        }
                        await heard.end()
                    }
                    for await message in outgoing {
                        guard let message else { break }
                        try await outbound.write(.binary(ByteBuffer(bytes: message.encoded())))
                    }
                    try? await outbound.close(.normalClosure, reason: nil)
                    try await tasks.waitForAll()
                }
            }
        }
    }

    /// Connected and caught up: the note's state, then `synced`.
    func caughtUp() async throws -> NoteText {
        #expect(await heard.waitFor { if case .synced = $0 { true } else { false } }, "the hub answered hello")
        for message in await heard.messages {
            if case .state(let bytes) = message { return try NoteText.decodeState(bytes, replica: ReplicaRange.random()) }
        }
        throw CancellationError()
    }

    func send(_ message: NoteEditMessage) { outgoing.yield(message) }

    /// Leaves; how the connection ended.
    func leave() async throws -> WebSocketCloseFrame? {
        outgoing.yield(nil)
        return try await connection.value
    }

    func heardTyping() async -> [NoteOperation] {
        await heard.messages.flatMap { message -> [NoteOperation] in
            guard case .operations(let bytes) = message else { return [] }
            return (try? NoteOperation.decode(bytes)) ?? []
        }
    }
}

/// Typing reaches the other editors before the disk has it, and is
/// acknowledged only once it is stored; what the hub refuses reaches no one.
// A WebSocket exchange that never ends fails its test after two minutes,
// named in the log, instead of holding the whole run.
@Suite(.serialized, .timeLimit(.minutes(2))) struct NoteRelayTests {
    /// A shared note "herbata" with a listener and a typist caught up on it,
    /// and the typist's copy of the text.
    static func twoEditors(port: Int, store: HearthStore, token: String) async throws
        -> (Note, BackgroundEditor, BackgroundEditor, NoteText) {
        let admin = try #require(try await store.people().first)
        let note = try await store.createNote(as: .noteMaker(admin.id), title: "", text: "herbata", visibility: .shared, pinned: false, by: "t")
        let listener = BackgroundEditor(port: port, token: token, noteId: note.id)
        _ = try await listener.caughtUp()
        let typist = BackgroundEditor(port: port, token: token, noteId: note.id)
        return (note, listener, typist, try await typist.caughtUp())
    }

    @Test func typingIsRelayedWhileTheDiskIsBusyAndAcknowledgedOnlyOnceStored() async throws {
        try await RunningHub.with { port, store, _, token in
            let (note, listener, typist, text) = try await Self.twoEditors(port: port, store: store, token: token)
            // Given another connection holding the database's write lock (a stalled disk)
            var configuration = Configuration()
            configuration.allowsUnsafeTransactions = true
            let blocker = try DatabaseQueue(path: store.pool.path, configuration: configuration)
            try await blocker.writeWithoutTransaction { db in try db.execute(sql: "BEGIN IMMEDIATE") }
            // When the typist types
            let typed = try text.insert("zielona ", at: 0)
            typist.send(.operations(NoteOperation.encode([typed])))
            // Then the listener hears it while it cannot yet be stored…
            let heard = await listener.heard.waitFor(within: .seconds(2)) { if case .operations = $0 { true } else { false } }
            #expect(heard, "relayed before it was stored")
            await expectEqual(listener.heardTyping().map(\.id), [typed.id])
            try await expectEqual(store.note(id: note.id)?.text, "herbata", "not stored yet")
            let acknowledgedEarly = await typist.heard.messages.contains {
                if case .acknowledged(let stored) = $0 { stored[typed.id.replica] > 0 } else { false }
            }
            #expect(!acknowledgedEarly, "acknowledged only once stored")
            // …and once the disk is free, it is stored and everyone is told so.
            try await blocker.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }
            for editor in [typist, listener] {
                let told = await editor.heard.waitFor {
                    if case .acknowledged(let stored) = $0 { stored[typed.id.replica] == typed.id.counter + typed.length } else { false }
                }
                #expect(told, "every editor hears that it is stored")
            }
            try await expectEqual(store.note(id: note.id)?.text, "zielona herbata")
            try await expectEqual(typist.leave()?.closeCode, .normalClosure)
            try await expectEqual(listener.leave()?.closeCode, .normalClosure)
        }
    }

    @Test func anOperationTheHubRefusesIsNeverRelayed() async throws {
        try await RunningHub.with { port, store, _, token in
            // Given a typist whose batch names a character the hub does not have
            let (note, listener, typist, text) = try await Self.twoEditors(port: port, store: store, token: token)
            let good = try text.insert("ok ", at: 0)
            let orphan = NoteOperation.insertion(.init(id: CharacterID(replica: 77, counter: 0),
                                                      originLeft: CharacterID(replica: 4, counter: 9), originRight: nil, text: "x"))
            let fromTheFuture = NoteOperation.insertion(.init(id: CharacterID(replica: 78, counter: 5),
                                                             originLeft: nil, originRight: nil, text: "y"))
            // When it sends them: the first is refused, the second batch's first
            // part applies and its refused rest does not
            typist.send(.operations(NoteOperation.encode([orphan])))
            await typist.heard.waitForEnd()
            let closed = try await typist.leave()
            #expect(closed.map { "\($0.closeCode)" } == "unknown(4409)")
            let second = BackgroundEditor(port: port, token: token, noteId: note.id)
            _ = try await second.caughtUp()
            second.send(.operations(NoteOperation.encode([good, fromTheFuture])))
            await second.heard.waitForEnd()
            #expect(try await second.leave().map { "\($0.closeCode)" } == "unknown(4409)")
            // Then the listener heard only what the hub applied
            #expect(await listener.heard.waitFor { if case .acknowledged(let v) = $0 { v[good.id.replica] > 0 } else { false } })
            await expectEqual(listener.heardTyping().map(\.id), [good.id])
            try await expectEqual(store.note(id: note.id)?.text, "ok herbata")
            _ = try await listener.leave()
        }
    }
}
