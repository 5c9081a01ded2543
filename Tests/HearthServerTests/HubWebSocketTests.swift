@testable import HearthSocketClient
import Testing

/// The addresses the tests' and HearthKit's WebSocket client takes (what it
/// says of a refused upgrade: LiveServerTests.anUnpairedDeviceGetsNoLiveStream).
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

    @Test(arguments: ["http://127.0.0.1:8080/", "wss://hearth.local/", "ws://:8080/", "ws://hearth.local:0/", "ws://hearth.local:99999/",
                      "ws://hearth.local:port/", ""])
    func refusesWhatIsNotAPlainWebSocketAddress(_ url: String) {
        #expect(throws: HubWebSocket.Failure.notAWebSocketAddress(url)) { try SocketAddressParts(url) }
    }
}
