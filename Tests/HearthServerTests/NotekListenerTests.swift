import Foundation
import HearthHubTestSupport
import HearthCore
import HearthCRDT
import HearthNotek
@testable import HearthEditing
@testable import HearthServer
import HearthStore
import HearthTestSupport
import Hummingbird
import HearthSocketClient
import Logging
import NIOCore
import ServiceLifecycle
import Testing

/// The hub's HTTP server and its Notek listener on loopback, sharing one
/// store and one set of open notes, as `hearth serve` runs them.
enum RunningNotekHub {
    struct Ports: Sendable {
        let http: Int
        let notek: Int
    }

    static func with<T: Sendable>(
        directory: URL? = nil,
        _ body: @escaping @Sendable (_ ports: Ports, _ store: HearthStore, _ adminToken: String) async throws -> T
    ) async throws -> T {
        let temporary = try TemporaryDirectory()
        let store = try HearthStore(directory: directory ?? temporary.url)
        defer { try? store.close() }
        try await store.ensureHousehold(name: "Kowalski family", timeZone: "Europe/Warsaw")
        var token = ""
        if try await store.people().isEmpty {
            let invitation = try await store.createPairing(for: .newPerson(name: "Admin", role: .admin), deviceName: nil, by: "test", maker: .hubTerminal)
            token = try await store.redeemPairing(.secret(invitation.code.secret), deviceName: "Laptop", userAgent: nil).1
        }
        let logger = Logger(label: "test")
        let sessions = NoteSessions(store: store, logger: logger)
        let openNotes = NotekListener.OpenNotes(store: store, noteSessions: sessions, logger: logger)
        let (httpPorts, httpPort) = AsyncStream.makeStream(of: Int.self)
        let (notekPorts, notekPort) = AsyncStream.makeStream(of: Int.self)
        let http = HearthServer.application(store: store, settings: .init(host: "127.0.0.1", port: 0), logger: logger,
                                            noteSessions: sessions) { httpPort.yield($0) }
        let notek = NotekListener.application(store: store, openNotes: openNotes, host: "127.0.0.1", port: 0, logger: logger) {
            notekPort.yield($0)
        }
        let group = ServiceGroup(services: [http, notek], logger: logger)
        return try await withThrowingTaskGroup(of: T?.self) { tasks in
            tasks.addTask {
                try await group.run()
                return nil
            }
            var first = httpPorts.makeAsyncIterator(), second = notekPorts.makeAsyncIterator()
            guard let httpPort = await first.next(), let notekPort = await second.next() else { throw CancellationError() }
            let result = try await body(Ports(http: httpPort, notek: notekPort), store, token)
            await openNotes.closeAll()
            await sessions.closeAll()
            await group.triggerGracefulShutdown()
            var value: T?
            for try await item in tasks { if let item { value = item } }
            return value ?? result
        }
    }
}

/// A Notek client over a real WebSocket: what it received, and a way to send.
actor NotekTestClient {
    private(set) var received: [NotekMessage] = []
    private(set) var characters: [PositionID: Unicode.Scalar] = [:]
    let kind: NotekConnectionKind

    init(kind: NotekConnectionKind) { self.kind = kind }

    var text: String {
        String(String.UnicodeScalarView(characters.sorted { $0.key < $1.key }.map(\.value)))
    }

    func take(_ frame: [UInt8]) throws {
        let message = try NotekMessage.decodeFromHub(frame, on: kind)
        received.append(message)
        switch message {
        case .newSession(_, let atoms): for atom in atoms { characters[atom.position] = atom.character }
        case .insert(_, let atom), .legacyInsert(_, let atom): characters[atom.position] = atom.character
        case .delete(_, let position), .legacyDelete(_, let position): characters[position] = nil
        default: break
        }
    }

    func typed(_ atom: NotekAtom) { characters[atom.position] = atom.character }

    /// A position for a new character after the `index`-th one (−1: at the start).
    func position(after index: Int, site: UInt8) -> PositionID? {
        let sorted = characters.keys.sorted()
        return PositionID.between(index >= 0 ? sorted[index] : nil, index + 1 < sorted.count ? sorted[index + 1] : nil, site: site)
    }

    var count: Int { characters.count }

    /// Connects, sends `first`, runs `body` with a sender, then closes (or,
    /// with `untilTheHubCloses`, waits up to 5 s for the hub to); returns
    /// how the connection was closed.
    static func connect(
        port: Int, client: NotekTestClient, sending first: [[UInt8]], untilTheHubCloses: Bool = false,
        _ body: @escaping @Sendable (_ send: @escaping @Sendable ([UInt8]) async throws -> Void) async throws -> Void = { _ in }
    ) async throws -> WebSocketCloseFrame? {
        try await HubWebSocket.connect(url: "ws://127.0.0.1:\(port)/", configuration: .init(maxFrameSize: 1 << 24),
                                          logger: Logger(label: "notek")) { inbound, outbound, _ in
            let (ended, end) = AsyncStream.makeStream(of: Void.self)
            let reader = Task {
                defer { end.finish() }
                for try await message in inbound.messages(maxSize: 1 << 24) {
                    guard case .binary(let buffer) = message else { continue }
                    try await client.take(Array(buffer.readableBytesView))
                }
            }
            for frame in first { try await outbound.write(.binary(ByteBuffer(bytes: frame))) }
            try await body { frame in try await outbound.write(.binary(ByteBuffer(bytes: frame))) }
            if untilTheHubCloses {
                let timeout = Task {
                    try await Task.sleep(for: .seconds(5))
                    end.finish()
                }
                for await _ in ended {}
                timeout.cancel()
            }
            try? await outbound.close(.normalClosure, reason: nil)
            _ = try? await reader.value
        }
    }
}

// A WebSocket exchange that never ends fails its test after two minutes,
// named in the log, instead of holding the whole run.
@Suite(.serialized, .timeLimit(.minutes(2))) struct NotekListenerTests {
    static func waitFor(_ what: String, timeout: Duration = .seconds(10), _ condition: @Sendable () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if try await condition() { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("timed out waiting for \(what)")
    }

    @Test func aWebEditorAndTwoNotekClientsTypeInOneNoteAndEndWithTheSameText() async throws {
        try await RunningNotekHub.with { ports, store, token in
            let admin = try #require(try await store.people().first)
            let note = try await store.createNote(as: .noteMaker(admin.id), title: "Zakupy", text: "Lista:\n",
                                                  visibility: .shared, pinned: false, by: "test")
            let start = NotekMessage.sessionStart(since: 0, document: note.id, name: "").bytes
            let first = NotekTestClient(kind: .session), second = NotekTestClient(kind: .session)
            let web = SimulatedEditor(name: "web", seed: 11)
            let webDone = DoneFlag()
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                for (client, site, word) in [(first, UInt8(5), "mleko"), (second, UInt8(6), "żółć😀")] {
                    tasks.addTask {
                        let closed = try await NotekTestClient.connect(port: ports.notek, client: client, sending: [start]) { send in
                            try await NotekListenerTests.waitFor("the note's characters") { await client.count >= 7 }
                            for _ in 0..<4 {
                                for scalar in word.unicodeScalars {
                                    let count = await client.count
                                    guard let position = await client.position(after: count - 1, site: site) else { return }
                                    let atom = NotekAtom(character: scalar, position: position)
                                    await client.typed(atom)
                                    try await send(NotekMessage.insert(site: site, atom: atom).bytes)
                                    try await Task.sleep(for: .milliseconds(5))
                                }
                                // And a deletion of the note's first character now and then.
                                if site == 6, let first = await client.characters.keys.sorted().first {
                                    try await send(NotekMessage.delete(site: site, position: first).bytes)
                                    await client.forget(first)
                                }
                            }
                            // Until the web editor is done, and its last edits had time to arrive.
                            try await NotekListenerTests.waitFor("the web editor", timeout: .seconds(60)) { await webDone.isDone }
                            try await Task.sleep(for: .milliseconds(500))
                        }
                        #expect(closed?.closeCode == .normalClosure || closed == nil, "\(String(describing: closed))")
                    }
                }
                tasks.addTask {
                    try await NoteEditingTests.session(web, port: ports.http, token: token, noteId: note.id, edits: 30)
                    await webDone.set()
                }
                try await tasks.waitForAll()
            }
            // Everything typed anywhere is stored, and every replica reads the same.
            let stored = try #require(try await store.note(id: note.id)?.text)
            let firstText = await first.text, secondText = await second.text
            expectEqual(firstText, stored)
            expectEqual(secondText, stored)
            // The web editor left before the Notek clients finished; it reads the stored text on its next visit.
            let later = SimulatedEditor(name: "later", seed: 12)
            try await NoteEditingTests.session(later, port: ports.http, token: token, noteId: note.id, edits: 0)
            await expectEqual(later.text, stored)
            // Each client heard the other's characters under the other's site.
            let heardFromSix = await first.received.contains { if case .insert(6, _) = $0 { true } else { false } }
            #expect(heardFromSix)
        }
    }

    @Test func aLegacyClientGetsTheSharedNoteAndPositionsOutliveARestart() async throws {
        let directory = try TemporaryDirectory()
        let before = try await RunningNotekHub.with(directory: directory.url) { ports, store, _ in
            let typist = NotekTestClient(kind: .legacy)
            _ = try await NotekTestClient.connect(port: ports.notek, client: typist, sending: [NotekMessage.greet.bytes]) { send in
                try await NotekListenerTests.waitFor("NewSession") { await !typist.received.isEmpty }
                guard case .newSession(let site, let atoms) = await typist.received.first else { return }
                #expect(site >= 1 && atoms.isEmpty)
                for (index, scalar) in "herbata".unicodeScalars.enumerated() {
                    let atom = NotekAtom(character: scalar, position: PositionID([.init(ident: UInt32(1000 * (index + 1)), site: site)]))
                    try await send(NotekMessage.legacyInsert(site: site, atom: atom).bytes)
                }
                try await NotekListenerTests.waitFor("the text stored") {
                    try await store.notes(visibleTo: PermissionPolicy.Actor(personId: UUID(), role: .caregiver)).first?.text == "herbata"
                }
            }
            // The web appends; a second legacy client sees every character in order.
            let note = try #require(try await store.notes(visibleTo: PermissionPolicy.Actor(personId: UUID(), role: .caregiver)).first)
            #expect(note.title == HearthStore.legacyNotekNoteTitle && note.visibility == .shared)
            let start = try #require(try await store.noteEditingStart(id: note.id))
            let hub = try NoteText.decodeState(start.state, replica: 98)
            for batch in start.updates { for operation in try NoteOperation.decode(batch) { try hub.apply(operation) } }
            expectEqual(hub.text, "herbata")
            let reader = NotekTestClient(kind: .legacy)
            _ = try await NotekTestClient.connect(port: ports.notek, client: reader, sending: [NotekMessage.greet.bytes]) { _ in
                try await NotekListenerTests.waitFor("NewSession") { await !reader.received.isEmpty }
            }
            guard case .newSession(_, let atoms) = await reader.received.first else {
                Issue.record("no NewSession")
                return [PositionID]()
            }
            expectEqual(String(String.UnicodeScalarView(atoms.map(\.character))), "herbata")
            return atoms.map(\.position)
        }
        let after = try await RunningNotekHub.with(directory: directory.url) { ports, _, _ in
            let reader = NotekTestClient(kind: .legacy)
            _ = try await NotekTestClient.connect(port: ports.notek, client: reader, sending: [NotekMessage.greet.bytes]) { _ in
                try await NotekListenerTests.waitFor("NewSession") { await !reader.received.isEmpty }
            }
            guard case .newSession(_, let atoms) = await reader.received.first else { return [PositionID]() }
            return atoms.map(\.position)
        }
        #expect(!before.isEmpty && after == before, "a restarted hub gives every character the position clients know")
    }

    @Test func badFramesCloseOnlyTheirOwnConnectionAndLeaveTheNoteAsItWas() async throws {
        try await RunningNotekHub.with { ports, store, _ in
            let admin = try #require(try await store.people().first)
            let note = try await store.createNote(as: .noteMaker(admin.id), title: "Leki", text: "rano",
                                                  visibility: .shared, pinned: false, by: "test")
            let start = NotekMessage.sessionStart(since: 0, document: note.id, name: "").bytes
            let atom = NotekAtom(character: "x", position: PositionID([.init(ident: 9, site: 3)]))
            var random = SeededRandom(seed: 2026)
            var frames: [[UInt8]] = [
                [],                                          // nothing
                [0, 1, 2],                                   // a truncated synclist
                [2, 0],                                      // a legacy insert with no greet first
                [200],                                       // an unknown tag
                [64] + Array(repeating: 0, count: 8),        // a truncated session_start
                Array(NotekMessage.insert(site: 1, atom: atom).bytes),  // a session message on an undecided connection
            ]
            // Session connections sent garbage after a good start.
            let valid = NotekMessage.insert(site: 3, atom: atom).bytes
            for _ in 0..<150 {
                var frame = valid
                switch Int.random(in: 0..<4, using: &random) {
                case 0: frame = (0..<Int.random(in: 1...24, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
                case 1: frame.removeLast(Int.random(in: 1..<frame.count, using: &random))
                case 2: frame[3] = [0, 33, 200].randomElement(using: &random)!  // the PID's depth
                default: frame[2] = [0, 5, 9].randomElement(using: &random)!    // the character's length
                }
                if (try? NotekMessage.decodeFromClient(frame, on: .session)) == nil { frames.append(frame) }
            }
            let survivor = NotekTestClient(kind: .session)
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                let (done, finish) = AsyncStream.makeStream(of: Void.self)
                tasks.addTask {
                    _ = try await NotekTestClient.connect(port: ports.notek, client: survivor, sending: [start]) { send in
                        for await _ in done {}
                        let position = try #require(await survivor.position(after: await survivor.count - 1, site: 4))
                        try await send(NotekMessage.insert(site: 4, atom: NotekAtom(character: "!", position: position)).bytes)
                        try await NotekListenerTests.waitFor("the survivor's insert stored") {
                            try await store.note(id: note.id)?.text == "rano!"
                        }
                    }
                }
                for (index, frame) in frames.enumerated() {
                    let client = NotekTestClient(kind: .session)
                    let opening = index < 6 ? [frame] : [start, frame]
                    let closed = try await NotekTestClient.connect(port: ports.notek, client: client, sending: opening,
                                                                   untilTheHubCloses: true)
                    expectEqual(closed?.closeCode, .protocolError, "frame \(frame): \(String(describing: closed))")
                    expectEqual(closed?.reason?.hasPrefix("protocol error"), true, "\(String(describing: closed?.reason))")
                }
                try await expectEqual(store.note(id: note.id)?.text, "rano")
                finish.finish()
                try await tasks.waitForAll()
            }
        }
    }

    @Test func aRenameOnTheWebReachesTheNotesNotekEditorsOnce() async throws {
        try await RunningNotekHub.with { ports, store, _ in
            let admin = try #require(try await store.people().first)
            let note = try await store.createNote(as: .noteMaker(admin.id), title: "Leki", text: "",
                                                  visibility: .shared, pinned: false, by: "test")
            let editor = NotekTestClient(kind: .session)
            _ = try await NotekTestClient.connect(port: ports.notek, client: editor, sending: [
                NotekMessage.sessionStart(since: 0, document: note.id, name: "").bytes,
            ]) { _ in
                // Joined once a first insert of its own would be relayed; give the join a moment.
                try await Task.sleep(for: .milliseconds(300))
                _ = try await store.updateNote(id: note.id, title: "Leki babci", visibility: nil, pinned: nil, as: .init(personId: note.ownerId, role: .admin), by: "device:web")
                try await NotekListenerTests.waitFor("the name change") { await !editor.received.isEmpty }
                try await Task.sleep(for: .milliseconds(200))
            }
            await expectEqual(editor.received, [.nameChange("Leki babci")])
        }
    }

    @Test func syncConnectionsListPullUpsertRenameAndDeleteSharedNotesOnly() async throws {
        try await RunningNotekHub.with { ports, store, _ in
            let admin = try #require(try await store.people().first)
            let shared = try await store.createNote(as: .noteMaker(admin.id), title: "Zakupy", text: "mleko",
                                                    visibility: .shared, pinned: false, by: "test")
            let diary = try await store.createNote(as: .noteMaker(admin.id), title: "Pamiętnik", text: "sekret",
                                                   visibility: .private, pinned: false, by: "test")
            let client = NotekTestClient(kind: .sync)
            let fresh = UUID()
            let closed = try await NotekTestClient.connect(port: ports.notek, client: client, sending: [
                NotekMessage.syncList(since: 0).bytes, NotekMessage.pull(document: shared.id, since: 0).bytes,
            ], untilTheHubCloses: true) { send in
                try await NotekListenerTests.waitFor("two answers") { await client.received.count >= 2 }
                let received = await client.received
                guard case .documentList(let listed) = received[0], case .document(let id, let name, let inserts, let deletes) = received[1] else {
                    Issue.record("unexpected answers \(received)")
                    return
                }
                expectEqual(listed.map(\.document), [shared.id], "the private note is not listed")
                #expect(id == shared.id && name == "Zakupy" && deletes.isEmpty)
                expectEqual(String(String.UnicodeScalarView(inserts.map(\.character))), "mleko")
                // Offline: "mleko" → "mleko i ser", without the "m".
                let sorted = inserts.map(\.position)
                var added: [NotekAtom] = []
                var lower = sorted.last
                for scalar in " i ser".unicodeScalars {
                    let position = try #require(PositionID.between(lower, nil, site: 42))
                    added.append(NotekAtom(character: scalar, position: position))
                    lower = position
                }
                try await send(NotekMessage.upsert(document: shared.id, name: "Zakupy", since: 1, inserts: added, deletes: [sorted[0]]).bytes)
                try await send(NotekMessage.upsert(document: fresh, name: "Nowa", since: 0,
                                                   inserts: [NotekAtom(character: "a", position: PositionID([.init(ident: 5, site: 42)]))],
                                                   deletes: []).bytes)
                try await send(NotekMessage.rename(document: shared.id, name: "Zakupy na sobotę").bytes)
                try await send(NotekMessage.syncList(since: NotekConnection.time(shared.updatedAt)).bytes)
                try await NotekListenerTests.waitFor("the list") { await client.received.count >= 3 }
                try await send(NotekMessage.deleteDocument(fresh).bytes)
                try await send(NotekMessage.pull(document: diary.id, since: 0).bytes)
            }
            expectEqual(closed?.closeCode, .unknown(4404), "a private note is not there for Notek: \(String(describing: closed))")
            let after = try #require(try await store.note(id: shared.id))
            #expect(after.text == "leko i ser" && after.title == "Zakupy na sobotę")
            let created = try #require(try await store.note(id: fresh))
            #expect(created.text == "a" && created.title == "Nowa" && created.visibility == .shared && created.deletedAt != nil)
            try await expectEqual(store.note(id: diary.id)?.text, "sekret")
        }
    }
}

actor DoneFlag {
    private(set) var isDone = false
    func set() { isDone = true }
}

extension NotekTestClient {
    func forget(_ position: PositionID) { characters[position] = nil }
}
