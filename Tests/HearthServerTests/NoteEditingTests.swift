import Foundation
import HearthHubTestSupport
import HearthCore
import HearthCRDT
@testable import HearthEditing
@testable import HearthServer
import HearthStore
import Hummingbird
import HearthSocketClient
import Logging
import NIOCore
import HearthTestSupport
import Testing

/// One person editing a note from a device: its own replica of the text,
/// the operations the hub has not acknowledged yet (typed here or heard
/// from the others: the hub relays before it stores), and a connection
/// that may drop and come back.
actor SimulatedEditor {
    let name: String
    private(set) var note: NoteText?
    private var outbox: [NoteOperation] = []
    private var random: SeededRandom
    private(set) var received = 0

    init(name: String, seed: UInt64) {
        self.name = name
        random = SeededRandom(seed: seed)
    }

    var text: String { note?.text ?? "" }
    var unacknowledged: Int { outbox.count }
    var hello: NoteEditMessage { .hello(note?.versionVector ?? VersionVector()) }

    /// What the hub sent; returns what to send back, if anything.
    func handle(_ message: NoteEditMessage) throws -> NoteEditMessage? {
        received += 1
        switch message {
        case .state(let bytes):
            // A fresh copy under a fresh replica id; what this device typed
            // and the hub may not have is replayed onto it.
            let fresh = try NoteText.decodeState(bytes, replica: ReplicaRange.random())
            for operation in outbox { try fresh.apply(operation) }
            note = fresh
        case .operations(let bytes):
            guard let note else { break }
            for operation in try NoteOperation.decode(bytes) {
                try note.apply(operation)
                outbox.append(operation)
            }
        case .synced(let hub):
            let missing = outbox.filter { $0.id.counter + $0.length > hub[$0.id.replica] }
            return missing.isEmpty ? nil : .operations(NoteOperation.encode(missing))
        case .acknowledged(let stored):
            outbox.removeAll { $0.id.counter + $0.length <= stored[$0.id.replica] }
        default:
            break
        }
        return nil
    }

    /// Types or deletes something somewhere, as people do.
    func edit() throws -> NoteEditMessage? {
        guard let note else { return nil }
        let operation: NoteOperation?
        if note.count > 0, Int.random(in: 0..<4, using: &random) == 0 {
            let position = Int.random(in: 0..<note.count, using: &random)
            operation = try note.delete(at: position, length: min(Int.random(in: 1...3, using: &random), note.count - position))
        } else {
            let words = ["mleko ", "chleb ", "ż", "ó", "👵🏼", "\n", "[ ] ", "a", "b"]
            operation = try note.insert(words.randomElement(using: &random)!, at: Int.random(in: 0...note.count, using: &random))
        }
        guard let operation else { return nil }
        outbox.append(operation)
        return .operations(NoteOperation.encode([operation]))
    }

    func pause() -> Duration { .milliseconds(Int.random(in: 10...25, using: &random)) }
    func dropsAfter() -> Int? { Int.random(in: 0..<3, using: &random) == 0 ? Int.random(in: 60...240, using: &random) : nil }
}


// A WebSocket exchange that never ends fails its test after two minutes,
// named in the log, instead of holding the whole run.
@Suite(.serialized, .timeLimit(.minutes(2))) struct NoteEditingTests {
    /// Connects `editor` to the note and runs `edits` of its edits (none: just
    /// catch up), until it has them acknowledged and has heard everything.
    static func session(_ editor: SimulatedEditor, port: Int, token: String, noteId: UUID, edits: Int) async throws {
        let closed = try await HubWebSocket.connect(
            url: "ws://127.0.0.1:\(port)/api/v1/notes/\(noteId.uuidString.lowercased())/edit",
            configuration: .init(maxFrameSize: 1 << 20, additionalHeaders: [.authorization: "Bearer \(token)"]),
            logger: Logger(label: "editor")
        ) { inbound, outbound, _ in
            try await outbound.write(.binary(ByteBuffer(bytes: await editor.hello.encoded())))
            let (synced, syncedContinuation) = AsyncStream.makeStream(of: Void.self)
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask {
                    for try await message in inbound.messages(maxSize: 1 << 20) {
                        guard case .binary(let buffer) = message else { continue }
                        let decoded = try NoteEditMessage.decode(Array(buffer.readableBytesView))
                        if let reply = try await editor.handle(decoded) {
                            try await outbound.write(.binary(ByteBuffer(bytes: reply.encoded())))
                        }
                        if case .synced = decoded { syncedContinuation.yield() }
                    }
                }
                var waitForSync = synced.makeAsyncIterator()
                _ = await waitForSync.next()
                for _ in 0..<edits {
                    try await Task.sleep(for: await editor.pause())
                    if let message = try await editor.edit() {
                        try await outbound.write(.binary(ByteBuffer(bytes: message.encoded())))
                    }
                }
                // Until everything typed here is stored, and a little longer
                // for what others typed meanwhile to arrive.
                let deadline = ContinuousClock.now + .seconds(30)
                while await editor.unacknowledged > 0, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(20))
                }
                try await Task.sleep(for: .milliseconds(200))
                try await outbound.close(.normalClosure, reason: nil)
                try await tasks.waitForAll()
            }
        }
        if let closed, closed.closeCode != .normalClosure {
            Issue.record("\(await editor.name): the hub closed with \(closed.closeCode) \(closed.reason ?? "")")
        }
    }

    @Test func twentyEditorsWithDroppedConnectionsAllEndWithTheSameText() async throws {
        try await RunningHub.with { port, store, _, token in
            let admin = try #require(try await store.people().first)
            let note = try await store.createNote(as: .noteMaker(admin.id), title: "Zakupy", text: "Lista:\n",
                                                  visibility: .shared, pinned: false, by: "test")
            let editors = (0..<20).map { SimulatedEditor(name: "editor \($0)", seed: UInt64($0) + 1) }
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                for editor in editors {
                    tasks.addTask {
                        var remaining = 300
                        if let drop = await editor.dropsAfter() {
                            try await Self.session(editor, port: port, token: token, noteId: note.id, edits: drop)
                            remaining -= drop
                        }
                        try await Self.session(editor, port: port, token: token, noteId: note.id, edits: remaining)
                    }
                }
                try await tasks.waitForAll()
            }
            // Everyone catches up once more (all at once, as devices coming
            // back do), then all agree with the hub…
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                for editor in editors {
                    tasks.addTask { try await Self.session(editor, port: port, token: token, noteId: note.id, edits: 0) }
                }
                try await tasks.waitForAll()
            }
            let stored = try #require(try await store.note(id: note.id)).text
            for editor in editors {
                await expectEqual(editor.unacknowledged, 0, "\(editor.name) has everything acknowledged")
                await expectEqual(editor.text, stored, "\(editor.name) agrees with the hub")
            }
            // …and with the note as a restarted hub reads it from SQLite.
            let start = try #require(try await store.noteEditingStart(id: note.id))
            let reloaded = try NoteText.decodeState(start.state, replica: 1)
            for batch in start.updates {
                for operation in try NoteOperation.decode(batch) { try reloaded.apply(operation, waitForMissing: false) }
            }
            expectEqual(reloaded.text, stored)
            #expect(stored.count > 1000, "the editors typed")
        }
    }
}

extension NoteEditingTests {
    /// Search is refreshed while typing only now and then (it re-reads the
    /// whole note), so it must catch up once the typing is over.
    @Test func wordsTypedInASessionAreFoundOnceTheEditorLeaves() async throws {
        try await RunningHub.with { port, store, _, token in
            let admin = try #require(try await store.people().first)
            let reader = PermissionPolicy.Actor(personId: admin.id, role: admin.role, caresFor: [])
            let note = try await store.createNote(as: .noteMaker(admin.id), title: "Zakupy", text: "mleko\n",
                                                  visibility: .shared, pinned: false, by: "test")
            _ = try await HubWebSocket.connect(
                url: "ws://127.0.0.1:\(port)/api/v1/notes/\(note.id.uuidString.lowercased())/edit",
                configuration: .init(additionalHeaders: [.authorization: "Bearer \(token)"]), logger: Logger(label: "editor")
            ) { inbound, outbound, _ in
                try await outbound.write(.binary(ByteBuffer(bytes: NoteEditMessage.hello(VersionVector()).encoded())))
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                var replica: NoteText?
                reading: while let message = try await messages.next() {
                    guard case .binary(let buffer) = message else { continue }
                    switch try NoteEditMessage.decode(Array(buffer.readableBytesView)) {
                    case .state(let bytes): replica = try NoteText.decodeState(bytes, replica: 4242)
                    case .synced: break reading
                    default: continue
                    }
                }
                let text = try #require(replica)
                for character in "pomidory" {
                    let operation = try text.insert(String(character), at: text.count)
                    try await outbound.write(.binary(ByteBuffer(bytes: NoteEditMessage.operations(NoteOperation.encode([operation])).encoded())))
                }
                var stored = VersionVector()
                while stored[4242] < 8, let message = try await messages.next() {
                    if case .binary(let buffer) = message, case .acknowledged(let vector) = try NoteEditMessage.decode(Array(buffer.readableBytesView)) {
                        stored = vector
                    }
                }
                try await outbound.close(.normalClosure, reason: nil)
                while (try? await messages.next()) != nil {}
            }
            let deadline = ContinuousClock.now + .seconds(5)
            var found: [UUID] = []
            while found.isEmpty, ContinuousClock.now < deadline {
                found = try await store.searchNotes("pomidory", visibleTo: reader).map(\.note.id)
                if found.isEmpty { try await Task.sleep(for: .milliseconds(50)) }
            }
            expectEqual(found, [note.id], "what was typed is searchable once the editor has left")
            try await expectEqual(store.note(id: note.id)?.text, "mleko\npomidory")
        }
    }
}

@Suite(.serialized) struct NoteEditingRefusalTests {
    /// Connects, catches up, sends `frames` and returns how the hub closed.
    static func closeAfterSending(_ frames: [WebSocketOutboundWriter.OutboundFrame], port: Int, token: String, noteId: UUID) async throws -> (String, String?) {
        let closed = try await HubWebSocket.connect(
            url: "ws://127.0.0.1:\(port)/api/v1/notes/\(noteId.uuidString.lowercased())/edit",
            configuration: .init(additionalHeaders: [.authorization: "Bearer \(token)"]),
            logger: Logger(label: "editor")
        ) { inbound, outbound, _ in
            try await outbound.write(.binary(ByteBuffer(bytes: NoteEditMessage.hello(VersionVector()).encoded())))
            var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
            while let message = try await messages.next() {
                if case .binary(let buffer) = message, case .synced = try NoteEditMessage.decode(Array(buffer.readableBytesView)) { break }
            }
            for frame in frames { try? await outbound.write(frame) }
            while (try? await messages.next()) != nil {}
        }
        return (closed.map { "\($0.closeCode)" } ?? "none", closed?.reason)
    }

    @Test func badMessagesCloseTheConnectionWithAReasonAndLeaveTheNoteAsItWas() async throws {
        try await RunningHub.with { port, store, _, token in
            let admin = try #require(try await store.people().first)
            let note = try await store.createNote(as: .noteMaker(admin.id), title: "", text: "herbata", visibility: .shared, pinned: false, by: "t")
            let fromTheFuture = NoteOperation.insertion(.init(id: CharacterID(replica: 77, counter: 5), originLeft: nil, originRight: nil, text: "x"))
            let unknownOrigin = NoteOperation.insertion(.init(id: CharacterID(replica: 77, counter: 0),
                                                             originLeft: CharacterID(replica: 4, counter: 9), originRight: nil, text: "x"))
            func huge(_ replica: UInt64) -> WebSocketOutboundWriter.OutboundFrame {
                .binary(ByteBuffer(bytes: NoteEditMessage.operations(NoteOperation.encode([.insertion(.init(
                    id: CharacterID(replica: replica, counter: 0), originLeft: nil, originRight: nil,
                    text: String(repeating: "ą", count: 300_000)))])).encoded()))
            }
            let cases: [([WebSocketOutboundWriter.OutboundFrame], UInt16, String)] = [
                ([.binary(ByteBuffer(bytes: [1, 0x7F]))], 4400, "bad-frame"),
                ([.binary(ByteBuffer(bytes: [9, 0x02]))], 4400, "bad-frame"),
                ([.text("hello")], 4400, "bad-frame"),
                ([.binary(ByteBuffer(bytes: NoteEditMessage.operations([1, 1, 0]).encoded()))], 4400, "bad-frame"),
                ([.binary(ByteBuffer(bytes: NoteEditMessage.synced(VersionVector()).encoded()))], 4400, "bad-frame"),
                // The reason names the operation refused.
                ([.binary(ByteBuffer(bytes: NoteEditMessage.operations(NoteOperation.encode([fromTheFuture])).encoded()))], 4409,
                 "refused: 77:5 cannot be applied"),
                ([.binary(ByteBuffer(bytes: NoteEditMessage.operations(NoteOperation.encode([unknownOrigin])).encoded()))], 4409,
                 "refused: 77:0 cannot be applied: operation depends on 4:9"),
                (Array(repeating: .binary(ByteBuffer(bytes: NoteEditMessage.presence(Data(#"{"cursor":null}"#.utf8)).encoded())), count: 600),
                 4429, "too-many"),
                // 600 KB twice: the first fits, the second would pass 1 MiB.
                ([huge(78), huge(78), huge(79)], 4413, "too-large"),
            ]
            for (frames, code, reason) in cases {
                let (closeCode, closeReason) = try await Self.closeAfterSending(frames, port: port, token: token, noteId: note.id)
                expectEqual(closeCode, "unknown(\(code))", "\(reason): \(closeCode) \(closeReason ?? "")")
                expectEqual(closeReason?.hasPrefix(reason), true, "\(closeReason ?? "")")
            }
            // The first big insertion was taken (its write may still be
            // finishing: the connection closed before it was acknowledged).
            var text = ""
            for _ in 0..<100 {
                text = try #require(try await store.note(id: note.id)?.text)
                if text.unicodeScalars.count > 7 { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(text.hasSuffix("herbata") || text.hasPrefix("herbata"))
            expectEqual(text.unicodeScalars.count, 7 + 300_000, "only the first big insertion was taken")
        }
    }

    @Test func presenceOverAKibibyteIsRefusedAndNotCopiedToOtherEditors() async throws {
        try await RunningHub.with { port, store, _, token in
            let admin = try #require(try await store.people().first)
            let note = try await store.createNote(as: .noteMaker(admin.id), title: "", text: "herbata", visibility: .shared, pinned: false, by: "t")
            let padding = String(repeating: "x", count: 2000)
            let closed = try await HubWebSocket.connect(
                url: "ws://127.0.0.1:\(port)/api/v1/notes/\(note.id.text)/edit",
                configuration: .init(additionalHeaders: [.authorization: "Bearer \(token)"]), logger: Logger(label: "editor")
            ) { inbound, outbound, _ in
                try await outbound.write(.binary(ByteBuffer(bytes: NoteEditMessage.hello(VersionVector()).encoded())))
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                while let message = try await messages.next() {
                    if case .binary(let buffer) = message, case .synced = try NoteEditMessage.decode(Array(buffer.readableBytesView)) { break }
                }
                let presence = NoteEditMessage.presence(Data(#"{"cursor": 3, "padding": "\#(padding)"}"#.utf8))
                try await outbound.write(.binary(ByteBuffer(bytes: presence.encoded())))
                let givingUp = NotePrivacyTests.giveUp(outbound)
                defer { givingUp.cancel() }
                while (try? await messages.next()) != nil {}
            }
            // Refused as it is read (NoteEditMessage), before any editor could be sent it.
            #expect(closed.map { "\($0.closeCode)" } == "unknown(4400)")
            expectEqual(closed?.reason?.contains("presence must be a JSON object of at most 1024 bytes"), true, "\(closed?.reason ?? "none")")
        }
    }

    @Test func revokingADeviceClosesItsEditingConnection() async throws {
        try await RunningHub.with { port, store, _, _ in
            let code = try await store.createPairing(for: .newPerson(name: "Babcia", role: .senior), deviceName: nil, by: "test", maker: .hubTerminal)
            let (tablet, token) = try await store.redeemPairing(.secret(code.code.secret), deviceName: "Tablet", userAgent: nil)
            let note = try await store.createNote(as: .noteMaker(tablet.person.id), title: "", text: "x", visibility: .private, pinned: false, by: "t")
            let closed = try await HubWebSocket.connect(
                url: "ws://127.0.0.1:\(port)/api/v1/notes/\(note.id.uuidString.lowercased())/edit",
                configuration: .init(additionalHeaders: [.authorization: "Bearer \(token)"]),
                logger: Logger(label: "editor")
            ) { inbound, outbound, _ in
                try await outbound.write(.binary(ByteBuffer(bytes: NoteEditMessage.hello(VersionVector()).encoded())))
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                _ = try await messages.next()
                try await store.revokeDevice(id: tablet.device.id, as: PermissionPolicy.Actor(personId: UUID(), role: .admin), by: "test")
                while (try? await messages.next()) != nil {}
            }
            #expect(closed.map { "\($0.closeCode)" } == "unknown(4401)")
        }
    }

    @Test func someoneElsesPrivateNoteCannotBeOpened() async throws {
        try await RunningHub.with { port, store, _, token in
            let invitation = try await store.createPairing(for: .newPerson(name: "Babcia", role: .senior), deviceName: nil, by: "t", maker: .hubTerminal)
            let (senior, _) = try await store.redeemPairing(.secret(invitation.code.secret), deviceName: "Tablet", userAgent: nil)
            let diary = try await store.createNote(as: .noteMaker(senior.person.id), title: "Pamiętnik", text: "", visibility: .private, pinned: false, by: "t")
            await #expect(throws: (any Error).self) {
                _ = try await HubWebSocket.connect(
                    url: "ws://127.0.0.1:\(port)/api/v1/notes/\(diary.id.uuidString.lowercased())/edit",
                    configuration: .init(additionalHeaders: [.authorization: "Bearer \(token)"]),
                    logger: Logger(label: "editor")
                ) { _, _, _ in Issue.record("an admin opened a senior's private note") }
            }
            let client = LiveServerTests.client(port)
            let response = try await client.get("/api/v1/notes/\(diary.id.uuidString.lowercased())/edit",
                                                 headers: [.authorization: "Bearer \(token)"])
            expectEqual(response.status, .notFound)
            try await client.shutdown()
        }
    }
}

extension NoteEditingTests {
    @Test func aNoteSharedForReadingIsReadButTypingIntoItIsRefusedWith4403() async throws {
        try await RunningHub.with { port, store, _, token in
            let invitation = try await store.createPairing(for: .newPerson(name: "Babcia", role: .senior), deviceName: nil, by: "t", maker: .hubTerminal)
            let (senior, _) = try await store.redeemPairing(.secret(invitation.code.secret), deviceName: "Tablet", userAgent: nil)
            let note = try await store.createNote(as: .noteMaker(senior.person.id), title: "Moje leki", text: "rano", visibility: .shared,
                                                  readOnly: true, pinned: false, by: "t")
            let reader = SimulatedEditor(name: "admin", seed: 7)
            let closed = try await HubWebSocket.connect(
                url: "ws://127.0.0.1:\(port)/api/v1/notes/\(note.id.uuidString.lowercased())/edit",
                configuration: .init(maxFrameSize: 1 << 20, additionalHeaders: [.authorization: "Bearer \(token)"]),
                logger: Logger(label: "reader")
            ) { inbound, outbound, _ in
                try await outbound.write(.binary(ByteBuffer(bytes: await reader.hello.encoded())))
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                // The reader (the admin: the note is shared with the household) gets the text…
                while let message = try await messages.next() {
                    guard case .binary(let buffer) = message else { continue }
                    let decoded = try NoteEditMessage.decode(Array(buffer.readableBytesView))
                    _ = try await reader.handle(decoded)
                    if case .synced = decoded { break }
                }
                await expectEqual(reader.text, "rano")
                // …then types: nothing of it is kept, and the socket says why.
                if let typing = try await reader.edit() {
                    try await outbound.write(.binary(ByteBuffer(bytes: typing.encoded())))
                }
                while (try? await messages.next()) != nil {}
            }
            await expectEqual(reader.unacknowledged, 1, "it typed, and nothing of it was acknowledged")
            #expect(closed.map { "\($0.closeCode)" } == "unknown(4403)")
            expectEqual(closed?.reason?.hasPrefix("read-only:"), true)
            try await expectEqual(store.note(id: note.id)?.text, "rano", "nothing typed by a reader is kept")
        }
    }

    @Test func aCircleNoteCannotBeOpenedFromOutsideTheCircle() async throws {
        try await RunningHub.with { port, store, _, token in
            let invitation = try await store.createPairing(for: .newPerson(name: "Babcia", role: .senior), deviceName: nil, by: "t", maker: .hubTerminal)
            let (senior, _) = try await store.redeemPairing(.secret(invitation.code.secret), deviceName: "Tablet", userAgent: nil)
            let note = try await store.createNote(as: .noteMaker(senior.person.id), title: "Dla opiekunów", text: "", visibility: .circle,
                                                  pinned: false, by: "t")
            let client = LiveServerTests.client(port)
            let response = try await client.get("/api/v1/notes/\(note.id.uuidString.lowercased())/edit",
                                                 headers: [.authorization: "Bearer \(token)"])
            expectEqual(response.status, .notFound, "the admin does not look after her")
            try await client.shutdown()
        }
    }
}

@Suite struct MessageAllowanceTests {
    @Test func aBurstPassesAFloodDoesNot() {
        let start = ContinuousClock.now
        var allowance = MessageAllowance(perSecond: 100, burst: 400, now: start)
        var taken = 0
        for _ in 0..<400 where allowance.take(now: start) { taken += 1 }
        expectEqual(taken, 400)
        let refused = allowance.take(now: start)
        let later = start + .milliseconds(20)
        let results = [allowance.take(now: later), allowance.take(now: later), allowance.take(now: later)]
        #expect(!refused)
        expectEqual(results, [true, true, false], "two more after 20 ms")
    }
}
