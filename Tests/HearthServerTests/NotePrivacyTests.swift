import Foundation
import HearthCore
import HearthCRDT
import HearthHubTestSupport
import HearthNotek
@testable import HearthEditing
@testable import HearthServer
import HearthStore
import HTTPTypes
import Hummingbird
import HearthSocketClient
import Logging
import NIOCore
import Testing
import HearthTestSupport

/// A note made private stops reaching anyone but its owner, on every path
/// its words can leave the hub by: old sync pages, replayed sync results,
/// snapshots, the live stream, and open editors (NoteAccess).
// A WebSocket exchange that never ends fails its test after two minutes,
// named in the log, instead of holding the whole run.
@Suite(.serialized, .timeLimit(.minutes(2))) struct NotePrivacyTests {
    /// The words the owner wrote after making the note private, and the
    /// ones from before: none of them may reach a caregiver any more.
    static let secrets = ["tajemnica", "Diagnoza", "mleko"]

    /// A note's CRDT operation typing `words` at its end, from a new replica.
    static func typing(_ words: String, into id: UUID, store: HearthStore) async throws -> (NoteOperation, String) {
        let start = try #require(try await store.noteEditingStart(id: id))
        let text = try NoteText.decodeState(start.state, replica: ReplicaRange.random())
        for batch in start.updates {
            for operation in try NoteOperation.decode(batch) { _ = try text.apply(operation, waitForMissing: false) }
        }
        let operation = try text.insert(words, at: text.count)
        return (operation, text.text)
    }

    /// Stores typing as its owner, the way an editing session does.
    static func type(_ words: String, into id: UUID, as owner: PermissionPolicy.Actor, store: HearthStore) async throws {
        let (operation, text) = try await typing(words, into: id, store: store)
        _ = try await store.storeNoteOperations(
            noteId: id,
            operations: [StoredNoteOperation(replica: operation.id.replica, counter: operation.id.counter, length: operation.length,
                                             bytes: NoteOperation.encode([operation]))],
            text: text, recordChange: true, refreshSearch: true, editors: [owner], by: "test")
    }

    static func json(_ value: JSONValue?) -> String {
        (try? value.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }) ?? "null"
    }

    static func owner(_ home: CareHousehold) -> PermissionPolicy.Actor {
        PermissionPolicy.Actor(personId: home.seniorId, role: .senior)
    }

    // MARK: Sync

    @Test func oldSyncPagesAndSnapshotsNeverCarryTheWordsOfANoteSinceMadePrivate() async throws {
        try await CareHousehold.with { home in
            // Given Babcia's shared list, which she then renamed, made private and wrote in
            let before = try await home.store.latestSeq()
            let note = try await home.store.createNote(as: .noteMaker(home.seniorId), title: "Lista", text: "mleko",
                                                       visibility: .shared, pinned: false, by: "t")
            _ = try await home.store.updateNote(id: note.id, title: "Diagnoza", visibility: .private, pinned: nil, as: .init(personId: note.ownerId, role: .admin), by: "t")
            try await Self.type(" tajemnica", into: note.id, as: Self.owner(home), store: home.store)
            let latest = try await home.store.latestSeq()
            // When her caregiver's device pulls from every cursor, a page at a time or all at once
            for since in before...latest {
                for limit in [1, 500] {
                    let reply = try await home.call(.post, "/api/v1/sync", as: home.caregiver,
                                                    body: #"{"since": \#(since), "limit": \#(limit)}"#)
                    expectEqual(reply.status, .ok)
                    // Then no word of it arrives, and a page that names it says to drop it
                    let text = Self.json(reply.body)
                    for secret in Self.secrets { #expect(!text.contains(secret), "since \(since) limit \(limit): \(text)") }
                    for entry in SyncRouteTests.pulled(reply) where entry.field("id") == .string(note.id.text) {
                        expectEqual(entry.field("deleted"), .bool(true))
                    }
                }
            }
            let snapshot = try await home.call(.get, "/api/v1/sync/snapshot", as: home.caregiver)
            for secret in Self.secrets { #expect(!Self.json(snapshot.body).contains(secret)) }
            // While Babcia's own device gets the note as it is now, text and all
            let own = try await home.call(.post, "/api/v1/sync", as: home.senior, body: #"{"since": \#(before), "limit": 1}"#)
            let entry = try #require(SyncRouteTests.pulled(own).first)
            expectEqual(entry.field("fields")?.field("text"), .string("mleko tajemnica"))
            expectEqual(entry.field("fields")?.field("title"), .string("Diagnoza"))
        }
    }

    @Test func aReplayedSyncResultNoLongerCarriesANoteMadePrivate() async throws {
        try await CareHousehold.with { home in
            // Given Ania renamed Babcia's shared note from her phone (the hub
            // trimmed the title, so its answer carried the note)
            let note = try await home.store.createNote(as: .noteMaker(home.seniorId), title: "Lista", text: "mleko",
                                                       visibility: .shared, pinned: false, by: "t")
            let phone = try await SyncRouteTests.SyncingDevice(token: home.caregiver, store: home.store)
            let rename = phone.change("note", note.id.text, #"{"title": "  Zakupy  "}"#)
            let first = try await phone.sync(home, [rename])
            expectEqual(SyncRouteTests.results(first).first?.field("current")?.field("fields")?.field("text"), .string("mleko"))
            // When Babcia makes it private and writes in it, and the phone sends the same push again
            _ = try await home.store.updateNote(id: note.id, title: "Diagnoza", visibility: .private, pinned: nil, as: .init(personId: note.ownerId, role: .admin), by: "t")
            try await Self.type(" tajemnica", into: note.id, as: Self.owner(home), store: home.store)
            let again = try await home.call(.post, "/api/v1/sync", as: home.caregiver,
                                            body: #"{"since": \#(phone.cursor), "changes": [\#(rename)]}"#)
            // Then its answer is the first one, with nothing of the note as it is now
            expectEqual(again.status, .ok)
            let result = try #require(SyncRouteTests.results(again).first)
            expectEqual(result.field("status"), .string("applied"))
            expectEqual(result.field("current"), .null)
            for secret in Self.secrets { #expect(!Self.json(again.body).contains(secret), "\(Self.json(again.body))") }
        }
    }

    // MARK: Live

    @Test func theLiveStreamTellsThatANoteIsGoneWithoutItsNewTitle() async throws {
        try await RunningHub.with { port, store, _, _ in
            let admin = try #require(try await store.people().first)
            let caregiver = try await NotesRouteTests.device(store, "Ania", .caregiver)
            let start = try await store.latestSeq()
            let note = try await store.createNote(as: .noteMaker(admin.id), title: "Lista", text: "mleko", visibility: .shared, pinned: false, by: "t")
            let frames = FrameCollector()
            // Given Ania's device listening, from before the note was made
            _ = try await HubWebSocket.connect(
                url: "ws://127.0.0.1:\(port)/api/v1/live?since=\(start)",
                configuration: .init(additionalHeaders: [.authorization: "Bearer \(caregiver)"]), logger: Logger(label: "ws")
            ) { inbound, outbound, _ in
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                // hello, then the note's creation
                for _ in 0..<2 { await frames.add(try LiveServerTests.frame(try await messages.next())) }
                // When the admin renames it and makes it private in one change
                _ = try await store.updateNote(id: note.id, title: "Diagnoza", visibility: .private, pinned: nil, as: .init(personId: note.ownerId, role: .admin), by: "t")
                await frames.add(try LiveServerTests.frame(try await messages.next()))
                try await outbound.close(.normalClosure, reason: nil)
            }
            // Then Ania hears that it is gone, not what it is now called
            let told = await frames.frames
            expectEqual(told.count, 3)
            expectEqual(told.last?["entityId"], .string(note.id.text))
            expectEqual(told.last?["payload"], ["gone": .bool(true)])
            for frame in told {
                for secret in ["Diagnoza"] { #expect(!Self.json(.object(frame)).contains(secret)) }
            }
            // And a device replaying the log from before the note was made
            // hears nothing of its words either
            let replayed = FrameCollector()
            _ = try await HubWebSocket.connect(
                url: "ws://127.0.0.1:\(port)/api/v1/live?since=\(start)",
                configuration: .init(additionalHeaders: [.authorization: "Bearer \(caregiver)"]), logger: Logger(label: "ws")
            ) { inbound, outbound, _ in
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                for _ in 0..<3 { await replayed.add(try LiveServerTests.frame(try await messages.next())) }
                try await outbound.close(.normalClosure, reason: nil)
            }
            await expectEqual(replayed.count, 3)
            for frame in await replayed.frames {
                for secret in Self.secrets { #expect(!Self.json(.object(frame)).contains(secret), "\(frame)") }
            }
        }
    }

    // MARK: Editors

    /// Closes the test's side after 5 s, so a hub that never closes fails the test instead of holding it.
    static func giveUp(_ outbound: WebSocketOutboundWriter) -> Task<Void, Never> {
        Task {
            guard (try? await Task.sleep(for: .seconds(5))) != nil else { return }
            try? await outbound.close(.normalClosure, reason: "the hub never closed")
        }
    }

    @Test func anEditorWhoMayNoLongerSeeTheNoteIsClosedAndHearsNothingMore() async throws {
        try await RunningHub.with { port, store, _, adminToken in
            let admin = try #require(try await store.people().first)
            let caregiver = try await NotesRouteTests.device(store, "Ania", .caregiver)
            let note = try await store.createNote(as: .noteMaker(admin.id), title: "Lista", text: "", visibility: .shared, pinned: false, by: "t")
            let heard = FrameCollector()
            // Given Ania editing the admin's shared note
            let closed = try await HubWebSocket.connect(
                url: "ws://127.0.0.1:\(port)/api/v1/notes/\(note.id.text)/edit",
                configuration: .init(additionalHeaders: [.authorization: "Bearer \(caregiver)"]), logger: Logger(label: "editor")
            ) { inbound, outbound, _ in
                try await outbound.write(.binary(ByteBuffer(bytes: NoteEditMessage.hello(VersionVector()).encoded())))
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                while let message = try await messages.next() {
                    if case .binary(let buffer) = message, case .synced = try NoteEditMessage.decode(Array(buffer.readableBytesView)) { break }
                }
                // When the admin makes it private and types into it from another device
                _ = try await store.updateNote(id: note.id, title: nil, visibility: .private, pinned: nil, as: .init(personId: note.ownerId, role: .admin), by: "t")
                let (operation, _) = try await Self.typing("tajemnica", into: note.id, store: store)
                let client = LiveServerTests.client(port)
                let hlc = try await SyncRouteTests.SyncingDevice(token: adminToken, store: store).stamp()
                let operations = Data(NoteOperation.encode([operation])).base64EncodedString()
                let push = #"{"since": 0, "limit": 1, "changes": [{"opId": "\#(UUID().uuidString)", "entity": "noteText", "id": "\#(note.id.text)", "fields": {"operations": "\#(operations)"}, "hlc": "\#(hlc)"}]}"#
                let pushed = try await client.post("/api/v1/sync",
                                                      headers: [.authorization: "Bearer \(adminToken)", .contentType: "application/json"],
                                                      body: ByteBuffer(string: push))
                expectEqual(pushed.status, .ok)
                #expect(String(buffer: pushed.body).contains(#""status":"applied""#))
                try await client.shutdown()
                // and Ania's editor asks for the whole note again
                try? await outbound.write(.binary(ByteBuffer(bytes: NoteEditMessage.hello(VersionVector()).encoded())))
                let givingUp = Self.giveUp(outbound)
                defer { givingUp.cancel() }
                while let message = try? await messages.next() {
                    if case .binary(let buffer) = message { await heard.add(["bytes": .string(String(decoding: buffer.readableBytesView, as: UTF8.self))]) }
                }
            }
            // Then she was closed as "gone", and nothing she was sent holds the new words
            #expect(closed.map { "\($0.closeCode)" } == "unknown(4404)")
            for frame in await heard.frames { #expect(!Self.json(.object(frame)).contains("tajemnica")) }
            try await expectEqual(store.note(id: note.id)?.text, "tajemnica", "the owner's typing was stored")
        }
    }

    /// Issue 38 #1: the note did not change, only who she is; her open
    /// editor must not outlive the unlink (it kept hearing the senior type).
    @Test func aCaregiverUnlinkedWhileEditingASeniorsCircleNoteIsClosedAtOnceAndHearsNoMore() async throws {
        try await RunningHub.with { port, store, _, _ in
            let admin = try #require(try await store.people().first)
            let adminActor = PermissionPolicy.Actor(personId: admin.id, role: .admin)
            let invitation = try await store.createPairing(for: .newPerson(name: "Babcia", role: .senior), deviceName: nil, by: "t", maker: .hubTerminal)
            let (senior, _) = try await store.redeemPairing(.secret(invitation.code.secret), deviceName: "Tablet", userAgent: nil)
            let ania = try await store.createPairing(for: .newPerson(name: "Ania", role: .caregiver), deviceName: nil, by: "t", maker: .hubTerminal)
            let (carer, carerToken) = try await store.redeemPairing(.secret(ania.code.secret), deviceName: "Phone", userAgent: nil)
            try await store.link(caregiver: carer.person.id, senior: senior.person.id, as: adminActor, by: "t")
            let note = try await store.createNote(as: .noteMaker(senior.person.id), title: "Dla opiekunów", text: "", visibility: .circle,
                                                  pinned: false, by: "t")
            let heard = FrameCollector()
            let started = ContinuousClock.now
            // Given Ania following her mother's circle note
            let closed = try await HubWebSocket.connect(
                url: "ws://127.0.0.1:\(port)/api/v1/notes/\(note.id.text)/edit",
                configuration: .init(additionalHeaders: [.authorization: "Bearer \(carerToken)"]), logger: Logger(label: "editor")
            ) { inbound, outbound, _ in
                try await outbound.write(.binary(ByteBuffer(bytes: NoteEditMessage.hello(VersionVector()).encoded())))
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                while let message = try await messages.next() {
                    if case .binary(let buffer) = message, case .synced = try NoteEditMessage.decode(Array(buffer.readableBytesView)) { break }
                }
                // When an admin unlinks her, and then her mother types
                try await store.removeCareLink(caregiver: carer.person.id, senior: senior.person.id, as: adminActor, by: "t")
                try await Self.type("tajemnica", into: note.id, as: PermissionPolicy.Actor(personId: senior.person.id, role: .senior),
                                    store: store)
                let givingUp = Self.giveUp(outbound)
                defer { givingUp.cancel() }
                while let message = try? await messages.next() {
                    if case .binary(let buffer) = message { await heard.add(["bytes": .string(String(decoding: buffer.readableBytesView, as: UTF8.self))]) }
                }
            }
            // Then she was closed as "gone" at once, and heard none of it
            #expect(closed.map { "\($0.closeCode)" } == "unknown(4404)", "closed by the unlink, not left open")
            #expect(ContinuousClock.now - started < .seconds(5))
            for frame in await heard.frames { #expect(!Self.json(.object(frame)).contains("tajemnica")) }
        }
    }

    @Test func aNotekClientIsClosedWhenItsNoteIsMadePrivateAndNeverHearsTheNewName() async throws {
        try await RunningNotekHub.with { ports, store, _ in
            let admin = try #require(try await store.people().first)
            let note = try await store.createNote(as: .noteMaker(admin.id), title: "Leki", text: "", visibility: .shared, pinned: false, by: "t")
            let editor = NotekTestClient(kind: .session)
            let closed = try await NotekTestClient.connect(port: ports.notek, client: editor, sending: [
                NotekMessage.sessionStart(since: 0, document: note.id, name: "").bytes,
            ], untilTheHubCloses: true) { _ in
                try await Task.sleep(for: .milliseconds(300))
                _ = try await store.updateNote(id: note.id, title: "Diagnoza", visibility: .private, pinned: nil, as: .init(personId: note.ownerId, role: .admin), by: "device:web")
            }
            #expect(closed.map { "\($0.closeCode)" } == "unknown(4404)", "the hub closed it as not found")
            #expect(!(await editor.received).contains(.nameChange("Diagnoza")))
        }
    }

    @Test func movingANoteToTrashClosesEveryEditorAtOnce() async throws {
        try await RunningHub.with { port, store, _, adminToken in
            let admin = try #require(try await store.people().first)
            let note = try await store.createNote(as: .noteMaker(admin.id), title: "Lista", text: "mleko", visibility: .shared, pinned: false, by: "t")
            let started = ContinuousClock.now
            let closed = try await HubWebSocket.connect(
                url: "ws://127.0.0.1:\(port)/api/v1/notes/\(note.id.text)/edit",
                configuration: .init(additionalHeaders: [.authorization: "Bearer \(adminToken)"]), logger: Logger(label: "editor")
            ) { inbound, outbound, _ in
                try await outbound.write(.binary(ByteBuffer(bytes: NoteEditMessage.hello(VersionVector()).encoded())))
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                while let message = try await messages.next() {
                    if case .binary(let buffer) = message, case .synced = try NoteEditMessage.decode(Array(buffer.readableBytesView)) { break }
                }
                _ = try await store.trashNote(id: note.id, as: .init(personId: note.ownerId, role: .admin), by: "t")
                let givingUp = Self.giveUp(outbound)
                defer { givingUp.cancel() }
                while (try? await messages.next()) != nil {}
            }
            #expect(closed.map { "\($0.closeCode)" } == "unknown(4404)")
                #expect(ContinuousClock.now - started < .seconds(10), "closed when the note went to Trash, not at some later keystroke")
        }
    }
}
