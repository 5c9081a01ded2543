import Foundation
import HearthCore
import HearthHubTestSupport
import HearthNotek
@testable import HearthServer
import HearthStore
import HTTPTypes
import HearthSocketClient
import Logging
import NIOCore
import HearthTestSupport
import Testing

/// What an unauthenticated Notek client may not do: be a web page, hold
/// many connections from one address, or create notes without end.
// A WebSocket exchange that never ends fails its test after two minutes,
// named in the log, instead of holding the whole run.
@Suite(.serialized, .timeLimit(.minutes(2))) struct NotekLimitsTests {
    @Test func aWebPageCannotOpenTheNotekListener() async throws {
        try await RunningNotekHub.with { ports, _, _ in
            // Given a page the household has open in a browser: its WebSocket
            // upgrade names the page's origin (HubWebSocket, like a Notek
            // app, sends none, so the upgrade is written by hand)
            let upgrade: HTTPFields = [.connection: "Upgrade", .upgrade: "websocket", .secWebSocketVersion: "13",
                                       .secWebSocketKey: "dGhlIHNhbXBsZSBub25jZQ=="]
            for origin in ["http://evil.example", "https://192.168.1.9", "null"] {
                // The upgrade is refused (a browser shows no reason for it)…
                var headers = upgrade
                headers[.origin] = origin
                let page = LiveServerTests.client(ports.notek)
                try await expectEqual(page.get("/", headers: headers).status, .badRequest, "\(origin)")
                try? await page.shutdown()
                // …and the same address asked plainly says why
                let plain = LiveServerTests.client(ports.notek)
                let refused = try await plain.get("/", headers: [.origin: origin])
                expectEqual(refused.status, .forbidden, "\(origin)")
                #expect(String(buffer: refused.body).contains("from a web page are refused"))
                try? await plain.shutdown()
            }
            // While a Notek client (no origin, or its own ws:// one) is let in
            let native = LiveServerTests.client(ports.notek)
            try await expectEqual(native.get("/", headers: upgrade).status, .switchingProtocols)
            try? await native.shutdown()
        }
    }

    @Test func oneAddressHoldsAtMostEightNotekConnections() async throws {
        try await RunningNotekHub.with { ports, _, _ in
            // Given eight Notek clients from this address, each answered once
            let held = try await Self.holdEveryConnectionOneAddressMay(port: ports.notek)
            // When a ninth connects, it is closed with a reason. Waited for
            // 15 s at most: beside a release build this wait once never
            // ended (issue 39's closing notes), so what the ninth heard by
            // then is said rather than the run held.
            let ninth = HeldSocket(url: "ws://127.0.0.1:\(ports.notek)/", token: "", first: nil, step: { 0 })
            try await NotekListenerTests.waitFor("the hub to close a ninth connection", timeout: .seconds(15)) {
                await ninth.log.closeCode != nil
            }
            if await ninth.log.closeCode == nil {
                Issue.record("the ninth is still open, having heard \(await ninth.log.messages.count) messages")
                await ninth.stop()
            }
            let code = await ninth.log.closeCode, reason = await ninth.log.closeReason
            expectEqual(code, "unknown(4429)", "closed with \(code ?? "nothing"): \(reason ?? "no reason")")
            expectEqual(reason?.hasPrefix("too many"), true, "closed with \(code ?? "nothing"): \(reason ?? "no reason")")
            // And once one of the eight leaves, another may come
            // (its place is free once the hub's handler of it has ended, a
            // moment after the client heard the close: one refused meanwhile
            // tries again, as a Notek client does)
            await held[0].stop()
            var again: HeldSocket?
            let deadline = ContinuousClock.now + .seconds(10)
            while again == nil, ContinuousClock.now < deadline {
                let next = HeldSocket(url: "ws://127.0.0.1:\(ports.notek)/", token: "", first: NotekMessage.syncList(since: 0).bytes, step: { 0 })
                while await next.log.messages.isEmpty, await next.log.closeCode == nil, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(20))
                }
                if await !next.log.messages.isEmpty { again = next } else { await next.stop() }
            }
            #expect(again != nil, "no connection was answered within 10 s of one of the eight leaving")
            for socket in held.dropFirst() + [again].compactMap({ $0 }) { await socket.stop() }
        }
    }

    /// As many Notek connections from this address as the listener lets one
    /// address hold, each answered once; the caller stops them.
    static func holdEveryConnectionOneAddressMay(port: Int) async throws -> [HeldSocket] {
        let held = (0..<NotekListener.connectionsPerAddress).map { _ in
            HeldSocket(url: "ws://127.0.0.1:\(port)/", token: "", first: NotekMessage.syncList(since: 0).bytes, step: { 0 })
        }
        for socket in held {
            try await NotekListenerTests.waitFor("a Notek connection answered") { await !socket.log.messages.isEmpty }
        }
        return held
    }

    @Test func oneConnectionCreatesAtMostTwentyNotes() async throws {
        try await RunningNotekHub.with { ports, store, _ in
            let before = try await store.notes(visibleTo: .init(personId: UUID(), role: .caregiver)).count
            let client = NotekTestClient(kind: .sync)
            let closed = try await NotekTestClient.connect(port: ports.notek, client: client, sending: (0...NotekListener.notesPerConnection).map { number in
                NotekMessage.upsert(document: UUID(), name: "Notatka \(number)", since: 0, inserts: [], deletes: []).bytes
            }, untilTheHubCloses: true)
            #expect(closed.map { "\($0.closeCode)" } == "unknown(4429)")
            let after = try await store.notes(visibleTo: .init(personId: UUID(), role: .caregiver)).count
            expectEqual(after - before, NotekListener.notesPerConnection, "the twenty-first was refused")
        }
    }
}
