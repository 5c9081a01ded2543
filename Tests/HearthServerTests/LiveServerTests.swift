import Foundation
import HearthEditing
import HearthHubTestSupport
import HearthCore
@testable import HearthServer
import HearthStore
import Hummingbird
import HTTPTypes
import HearthSocketClient
import Logging
import NIOCore
import ServiceLifecycle
import HearthTestSupport
import Testing

/// The hub over real sockets on loopback: HTTP, WebSocket live updates, shutdown.
/// Serialized: run beside each other and beside the other suites, a WebSocket
/// upgrade was seen to stall (see the Makefile's `--no-parallel`).
// A WebSocket exchange that never ends fails its test after two minutes,
// named in the log, instead of holding the whole run.
@Suite(.serialized, .timeLimit(.minutes(2))) struct LiveServerTests {
    static func client(_ port: Int) -> TestClient {
        TestClient(host: "127.0.0.1", port: port, configuration: .init(timeout: .seconds(10)))
    }

    static func frame(_ message: WebSocketMessage?) throws -> [String: JSONValue] {
        guard case .text(let text) = message else { throw CancellationError() }
        return try JSONDecoder().decode([String: JSONValue].self, from: Data(text.utf8))
    }

    /// A new person of `role` with one paired device, and its token.
    static func paired(_ store: HearthStore, _ name: String, _ role: Person.Role, device: String = "Telefon") async throws
        -> (device: PairedDevice, token: String) {
        let code = try await store.createPairing(for: .newPerson(name: name, role: role), deviceName: nil, by: "test", maker: .hubTerminal)
        return try await store.redeemPairing(.secret(code.code.secret), deviceName: device, userAgent: nil)
    }

    /// Listens on the live stream as `token` until `handler` returns or the hub closes it.
    @discardableResult
    static func live(_ port: Int, as token: String, query: String = "",
                     _ handler: @escaping WebSocketDataHandler<HubWebSocket.Context>) async throws -> WebSocketCloseFrame? {
        try await HubWebSocket.connect(
            url: "ws://127.0.0.1:\(port)/api/v1/live\(query)",
            configuration: .init(additionalHeaders: [.authorization: "Bearer \(token)"]),
            logger: Logger(label: "ws"), handler: handler)
    }

    @Test func healthOverARealSocket() async throws {
        try await RunningHub.with { port, _, _, token in
            let client = Self.client(port)
            let response = try await client.get("/api/v1/health", headers: [.authorization: "Bearer \(token)"])
            expectEqual(response.status, .ok)
            #expect(String(buffer: response.body).contains(#""database":"ok""#))
            try await client.shutdown()
        }
    }

    @Test func liveSendsHelloThenReplaysThenForwardsChanges() async throws {
        try await RunningHub.with { port, store, _, token in
            let cursor = try await store.latestSeq()
            _ = try await store.updateHousehold(name: "Before", timeZone: nil, as: .hubTerminal, by: "test")
            let frames = try await withThrowingTaskGroup(of: [[String: JSONValue]].self) { tasks in
                tasks.addTask {
                    let collected = FrameCollector()
                    _ = try await HubWebSocket.connect(
                        url: "ws://127.0.0.1:\(port)/api/v1/live?since=\(cursor)",
                        configuration: .init(additionalHeaders: [.authorization: "Bearer \(token)"]),
                        logger: Logger(label: "ws")
                    ) { inbound, outbound, _ in
                        var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                        for _ in 0..<3 {
                            await collected.add(try Self.frame(try await messages.next()))
                            if await collected.count == 2 {
                                // Connected and caught up: now a live change.
                                _ = try await store.updateHousehold(name: "After", timeZone: nil, as: .hubTerminal, by: "test")
                            }
                        }
                        try await outbound.close(.normalClosure, reason: nil)
                    }
                    return await collected.frames
                }
                return try await tasks.next() ?? []
            }
            expectEqual(frames.count, 3)
            expectEqual(frames[0], ["type": "hello", "seq": .number(Double(cursor + 1))])
            expectEqual(frames[1]["type"], "change")
            expectEqual(frames[1]["seq"], .number(Double(cursor + 1)))
            expectEqual(frames[1]["payload"], ["name": "Before"])
            expectEqual(frames[2]["seq"], .number(Double(cursor + 2)))
            expectEqual(frames[2]["payload"], ["name": "After"])
            expectEqual(frames[2]["entity"], "household")
            expectEqual(frames[2]["op"], "update")
        }
    }

    @Test func aWebSocketFromAnotherSiteIsRefused() async throws {
        try await RunningHub.with { port, _, _, token in
            let client = Self.client(port)
            let response = try await client.get("/api/v1/live?since=0", headers: [
                .connection: "Upgrade", .upgrade: "websocket", .origin: "http://evil.example", .cookie: "hearth_device=\(token)",
                .secWebSocketVersion: "13", .secWebSocketKey: "dGhlIHNhbXBsZSBub25jZQ==",
            ])
            // Refused before upgrading: no live data reaches the other site.
            expectEqual(response.status, .badRequest)
            try await client.shutdown()
        }
    }

    @Test func anUnpairedDeviceGetsNoLiveStream() async throws {
        try await RunningHub.with { port, _, _, _ in
            // Refused before upgrading: the client sees the upgrade fail
            // (Hummingbird answers a declined upgrade 400, whatever the reason)…
            await #expect(throws: HubWebSocket.Failure.upgradeRefused(status: 400)) {
                _ = try await HubWebSocket.connect(
                    url: "ws://127.0.0.1:\(port)/api/v1/live?since=0", logger: Logger(label: "ws")
                ) { inbound, _, _ in
                    for try await _ in inbound {}
                }
            }
            // …and a plain GET says why.
            let client = Self.client(port)
            let explained = try await client.get("/api/v1/live?since=0")
            expectEqual(explained.status, .unauthorized)
            try await client.shutdown()
        }
    }

    // Bad cursors over a real WebSocket (close codes 4400/4409 with a reason)
    // are tested end to end with an independent client in Tests/e2e/test_api.py.
    // Here, with HummingbirdWSClient (before HubWebSocket), that exchange stalled about one run
    // in six when it followed a refused upgrade; see the closing note of the
    // pairing issue.

    @Test func revokingADeviceClosesItsLiveConnection() async throws {
        try await RunningHub.with { port, store, _, token in
            let code = try await store.createPairing(for: .newPerson(name: "Babcia", role: .senior), deviceName: nil, by: "test", maker: .hubTerminal)
            let (tablet, token) = try await store.redeemPairing(.secret(code.code.secret), deviceName: "Tablet", userAgent: nil)
            let close = try await HubWebSocket.connect(
                url: "ws://127.0.0.1:\(port)/api/v1/live",
                configuration: .init(additionalHeaders: [.authorization: "Bearer \(token)"]),
                logger: Logger(label: "ws")
            ) { inbound, _, _ in
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                try expectEqual(Self.frame(try await messages.next())["type"], "hello")
                try await store.revokeDevice(id: tablet.device.id, as: PermissionPolicy.Actor(personId: UUID(), role: .admin), by: "test")
                while try await messages.next() != nil {}
            }
            expectEqual(close?.closeCode, .unknown(4401))
            expectEqual(close?.reason?.hasPrefix("revoked"), true)
        }
    }

    @Test func aCaregiverUnlinkedFromASeniorIsClosedAndHearsNothingMoreOfHer() async throws {
        try await RunningHub.with { port, store, _, _ in
            let senior = try await store.addPerson(name: "Babcia", role: .senior, as: .hubTerminal, by: "test")
            let (phone, token) = try await Self.paired(store, "Ania", .caregiver)
            try await store.link(caregiver: phone.person.id, senior: senior.id, as: .hubTerminal, by: "test")
            let heard = FrameCollector()
            let close = try await Self.live(port, as: token) { inbound, _, _ in
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                try expectEqual(Self.frame(try await messages.next())["type"], "hello")
                _ = try await store.raiseSOS(for: senior.id, as: PermissionPolicy.Actor(personId: senior.id, role: .senior), by: "test")
                await heard.add(try Self.frame(try await messages.next()))
                try await store.removeCareLink(caregiver: phone.person.id, senior: senior.id, as: .hubTerminal, by: "test")
                // Raised after the unlink, before the socket has closed: never sent.
                _ = try await store.raiseSOS(for: senior.id, as: PermissionPolicy.Actor(personId: senior.id, role: .senior), by: "test")
                while let message = try await messages.next() { await heard.add(try Self.frame(message)) }
            }
            expectEqual(close?.closeCode, .unknown(4000))
            expectEqual(close?.reason?.hasPrefix("resync"), true)
            #expect(await heard.frames.compactMap { $0["entity"] } == ["alert"], "one SOS while she looked after Babcia, none after")
            // Reconnected, she is who she is now: Babcia's alerts are not hers to see.
            let client = Self.client(port)
            let alerts = try await client.get("/api/v1/alerts", headers: [.authorization: "Bearer \(token)"])
            expectEqual(String(buffer: alerts.body), "[]")
            try await client.shutdown()
        }
    }

    @Test func anAdminMadeACaregiverIsClosedAndHearsOnlyHerSeniorsFromThen() async throws {
        try await RunningHub.with { port, store, _, _ in
            let senior = try await store.addPerson(name: "Babcia", role: .senior, as: .hubTerminal, by: "test")
            let (phone, token) = try await Self.paired(store, "Ania", .admin)
            let heard = FrameCollector()
            let close = try await Self.live(port, as: token) { inbound, _, _ in
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                try expectEqual(Self.frame(try await messages.next())["type"], "hello")
                _ = try await store.updatePerson(id: phone.person.id, PersonChange(role: .caregiver), as: .hubTerminal, by: "test")
                // Raised after the change of role, before the socket has closed: never sent.
                _ = try await store.raiseSOS(for: senior.id, as: PermissionPolicy.Actor(personId: senior.id, role: .senior), by: "test")
                while let message = try await messages.next() {
                    let frame = try Self.frame(message)
                    await heard.add(frame)
                    if frame["entity"] == "alert" { break }
                }
            }
            expectEqual(close?.closeCode, .unknown(4000))
            #expect(await !heard.frames.contains { $0["entity"] == "alert" }, "the SOS of a senior she does not look after")
            // An admin again; reconnected from before both changes, the replay
            // (a caregiver, then an admin) does not close it again.
            _ = try await store.updatePerson(id: phone.person.id, PersonChange(role: .admin), as: .hubTerminal, by: "test")
            let replayed = FrameCollector()
            let again = try await Self.live(port, as: token, query: "?since=0") { inbound, outbound, _ in
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                try expectEqual(Self.frame(try await messages.next())["type"], "hello")
                _ = try await store.updateHousehold(name: "Last", timeZone: nil, as: .hubTerminal, by: "test")
                while let message = try await messages.next() {
                    let frame = try Self.frame(message)
                    await replayed.add(frame)
                    if frame["payload"] == ["name": "Last"] { break }
                }
                try await outbound.close(.normalClosure, reason: nil)
            }
            #expect(again?.closeCode != .unknown(4000))
            #expect(await replayed.frames.filter { $0["entity"] == "person" && $0["entityId"] == .string(phone.person.id.text) }.count >= 2)
        }
    }

    @Test func theTestButtonShowsOnThePersonsOpenPagesAndSaysWhichDevices() async throws {
        try await RunningHub.with { port, store, _, _ in
            let (_, token) = try await Self.paired(store, "Ania", .caregiver, device: "Telefon Ani")
            let (_, othersToken) = try await Self.paired(store, "Piotr", .caregiver, device: "Telefon Piotra")
            let answer = Locked<JSONValue?>(nil)
            let heardByOther = FrameCollector()
            async let others: WebSocketCloseFrame? = Self.live(port, as: othersToken) { inbound, outbound, _ in
                // Until the household's rename, sent after the test: whatever came before it is all he was shown.
                for try await message in inbound.messages(maxSize: 1 << 20) {
                    let frame = try Self.frame(message)
                    await heardByOther.add(frame)
                    if frame["payload"] == ["name": "Last"] { break }
                }
                try await outbound.close(.normalClosure, reason: nil)
            }
            let close = try await Self.live(port, as: token) { inbound, outbound, _ in
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                try expectEqual(Self.frame(try await messages.next())["type"], "hello")
                while await heardByOther.count == 0 { try await Task.sleep(for: .milliseconds(10)) }
                let client = Self.client(port)
                let response = try await client.post("/api/v1/alert-apps/test", headers: [.authorization: "Bearer \(token)"], body: ByteBuffer())
                answer.withLock { $0 = try? JSONDecoder().decode(JSONValue.self, from: Data(buffer: response.body)) }
                try await client.shutdown()
                let test = try Self.frame(try await messages.next())
                #expect(test["type"] == "test" && test["id"] == answer.withLock { $0?.field("messageId") })
                #expect(test["title"] != nil && test["message"] != nil)
                try await outbound.close(.normalClosure, reason: nil)
            }
            expectEqual(close?.closeCode, .normalClosure)
            guard case .array(let delivered)? = answer.withLock({ $0?.field("delivered") }) else {
                Issue.record("no deliveries in \(String(describing: answer.withLock { $0 }))")
                return
            }
            #expect(delivered.map { $0.field("channel") } == [.string("page")])
            #expect(delivered.map { $0.field("recipient") } == [.string("Telefon Ani")])
            #expect(answer.withLock { $0?.field("sentTo") } == .array(["Telefon Ani"]))
            // Piotr's open page is his, not Ania's: it is shown nothing.
            _ = try await store.updateHousehold(name: "Last", timeZone: nil, as: .hubTerminal, by: "test")
            _ = try await others
            #expect(await heardByOther.frames.map { $0["type"] } == [.string("hello"), .string("change")])
        }
    }

    @Test func listenersHearOnlyWhatTheirRoleMaySee() async throws {
        try await RunningHub.with { port, store, _, token in
            let code = try await store.createPairing(for: .newPerson(name: "Babcia", role: .senior), deviceName: nil, by: "test", maker: .hubTerminal)
            let (_, token) = try await store.redeemPairing(.secret(code.code.secret), deviceName: "Tablet", userAgent: nil)
            let collected = FrameCollector()
            _ = try await HubWebSocket.connect(
                url: "ws://127.0.0.1:\(port)/api/v1/live?since=0",
                configuration: .init(additionalHeaders: [.authorization: "Bearer \(token)"]),
                logger: Logger(label: "ws")
            ) { inbound, outbound, _ in
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                _ = try await store.createPairing(for: .newPerson(name: "Someone", role: .admin), deviceName: nil, by: "test", maker: .hubTerminal)
                _ = try await store.updateHousehold(name: "Last", timeZone: nil, as: .hubTerminal, by: "test")
                while let message = try await messages.next() {
                    let frame = try Self.frame(message)
                    await collected.add(frame)
                    if frame["payload"] == ["name": "Last"] { break }
                }
                try await outbound.close(.normalClosure, reason: nil)
            }
            let entities = await collected.frames.compactMap { $0["entity"] }
            #expect(entities.contains("household"))
            #expect(entities.contains("person"), "names are shown across the household")
            #expect(!entities.contains("pairingCode"), "pairing codes are for admins")
        }
    }

    @Test func shutdownFinishesARequestInFlight() async throws {
        // Shutdown starts once the request is in the route, not after a fixed
        // pause: on a busy 2-core machine the request can take longer to arrive.
        let (arrived, arrival) = AsyncStream.makeStream(of: Void.self)
        let router: @Sendable (HearthStore) -> HearthRouter = { store in
            let router = HearthServer.router(store: store, noteSessions: NoteSessions(store: store, logger: Logger(label: "test")))
            router.router.get("/api/test/slow") { _, _ in
                arrival.yield()
                try await Task.sleep(for: .milliseconds(500))
                return "finished"
            }
            return router
        }
        try await RunningHub.with(router: router) { port, _, group, token in
            let client = Self.client(port)
            async let response = client.get("/api/test/slow", headers: [.authorization: "Bearer \(token)"])
            var arrivals = arrived.makeAsyncIterator()
            _ = await arrivals.next()
            let started = ContinuousClock.now
            await group.triggerGracefulShutdown()
            let finished = try await response
            expectEqual(finished.status, .ok)
            expectEqual(String(buffer: finished.body), "finished")
            #expect(ContinuousClock.now - started < .seconds(5))
            try? await client.shutdown()
        }
    }
}

actor FrameCollector {
    var frames: [[String: JSONValue]] = []
    var count: Int { frames.count }
    func add(_ frame: [String: JSONValue]) { frames.append(frame) }
}
