import HearthHubTestSupport
@testable import HearthServer
@testable import HearthSocketClient
import Logging
import HearthTestSupport
import Testing

/// The addresses the tests' and HearthKit's WebSocket client takes, and what
/// it hears of a socket the hub closes at once (what it says of a refused
/// upgrade: LiveServerTests.anUnpairedDeviceGetsNoLiveStream).
@Suite(.timeLimit(.minutes(1))) struct HubWebSocketTests {
    @Test func readsTheAddressesAHubIsReachedAt() throws {
        let live = try SocketAddressParts("ws://127.0.0.1:8080/api/v1/live?since=3")
        #expect((live.host, live.port, live.target, live.hostHeader) == ("127.0.0.1", 8080, "/api/v1/live?since=3", "127.0.0.1:8080"))
        let named = try SocketAddressParts("ws://hearth.local")
        #expect((named.host, named.port, named.target, named.hostHeader) == ("hearth.local", 80, "/", "hearth.local"))
        let query = try SocketAddressParts("WS://hearth.local:4747?x=1")
        #expect((query.port, query.target) == (4747, "/?x=1"))
        let six = try SocketAddressParts("ws://[fe80::1]:4747/")
        #expect((six.host, six.port, six.hostHeader) == ("fe80::1", 4747, "[fe80::1]:4747"))
    }

    @Test func aSocketTheHubClosesAtOnceStillHearsWhy() async throws {
        try await RunningNotekHub.with { ports, _, _ in
            // Given the Notek listener holding as many connections as one
            // address may
            let held = try await NotekLimitsTests.holdEveryConnectionOneAddressMay(port: ports.notek)
            // When the next is upgraded and closed with 4429, and its 101,
            // its close frame and the end of input reach the client in one
            // read (the relay holds them until the hub has finished: on a
            // loaded machine the CI once read them so, and the client heard
            // no close frame at all)
            let relay = try await HoldingRelay(to: ports.notek)
            for attempt in 1...10 {
                let closed = try await HubWebSocket.connect(url: "ws://127.0.0.1:\(relay.port)/", logger: Logger(label: "ninth")) { inbound, _, _ in
                    for try await _ in inbound {}
                }
                // Then it hears the code and the reason, every time
                #expect(closed.map { "\($0.closeCode)" } == "unknown(4429)", "attempt \(attempt)")
                expectEqual(closed?.reason?.hasPrefix("too many"), true, "attempt \(attempt): \(closed?.reason ?? "no reason")")
            }
            try await relay.shutdown()
            for socket in held { await socket.stop() }
        }
    }

    @Test func aConnectionClosedBeforeItsAnswerIsAnErrorNotAWait() async throws {
        // A relay to a relay to a port nothing listens on: the inner one
        // drops each connection at once, so the outer one reads the
        // request and then ends its output, having answered nothing. The
        // client, which holds the end of input while an upgrade may be under
        // way, lets go of it when no answer is coming.
        let nothing = try await HoldingRelay(to: 1)
        let silent = try await HoldingRelay(to: nothing.port)
        await #expect(throws: (any Error).self) {
            try await HubWebSocket.connect(url: "ws://127.0.0.1:\(silent.port)/", logger: Logger(label: "unanswered")) { _, _, _ in
                Issue.record("no socket was opened")
            }
        }
        try await silent.shutdown()
        try await nothing.shutdown()
    }

    @Test(arguments: ["http://127.0.0.1:8080/", "wss://hearth.local/", "ws://:8080/", "ws://hearth.local:0/", "ws://hearth.local:99999/",
                      "ws://hearth.local:port/", ""])
    func refusesWhatIsNotAPlainWebSocketAddress(_ url: String) {
        #expect(throws: HubWebSocket.Failure.notAWebSocketAddress(url)) { try SocketAddressParts(url) }
    }
}
