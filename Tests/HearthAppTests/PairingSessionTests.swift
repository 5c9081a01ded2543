import Foundation
@testable import HearthApp
import HearthCore
import HearthStore
import HearthTestSupport
import Testing

@Suite struct PairingSessionTests {
    final class Screen: Sendable {
        private let text = Locked("")
        func write(_ more: String) { text.withLock { $0 += more } }
        var contents: String { text.withLock { $0 } }
    }


    @Test func showsTheCodeAndReportsTheDeviceThatUsedIt() async throws {
        let directory = try TemporaryDirectory()
        let store = try HearthStore(directory: directory.url)
        defer { try? store.close() }
        let screen = Screen()
        var options = PairingSession.Options()
        options.newPerson = "Kasia"
        options.role = .caregiver
        options.urlHost = "192.168.1.20"
        let session = PairingSession(store: store, port: 8080, options: options, isTerminal: false, write: screen.write)
        let running = Task { try await session.run(pollEvery: .milliseconds(20)) }

        // Wait for the screen, then use the printed URL as a phone would.
        var secret: Substring?
        for _ in 0..<200 where secret == nil {
            try await Task.sleep(for: .milliseconds(10))
            secret = screen.contents.split(separator: "\n").first { $0.hasPrefix("Scan it, or open: http://192.168.1.20:8080/pair#") }?
                .split(separator: "#").last
        }
        let code = try #require(secret)
        _ = try await store.redeemPairing(.secret(String(code)), deviceName: "Kasia's phone", userAgent: nil)

        try await expectEqual(running.value, .paired("Paired: Kasia's phone (Kasia, caregiver)"))
        let lines = screen.contents.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.contains { $0.hasPrefix("Code to type: ") && $0.contains("For: Kasia (caregiver)") })
        #expect(lines.count <= 24, "fits an 80×24 terminal")
        #expect(lines.last(where: { !$0.isEmpty }) == "Paired: Kasia's phone (Kasia, caregiver)")
    }

    @Test func saysExpiredWhenNobodyUsesIt() async throws {
        let directory = try TemporaryDirectory()
        let store = try HearthStore(directory: directory.url)
        defer { try? store.close() }
        let screen = Screen()
        var options = PairingSession.Options()
        options.lifetime = .seconds(1)
        let session = PairingSession(store: store, port: 8080, options: options, isTerminal: false, write: screen.write)
        try await expectEqual(session.run(pollEvery: .milliseconds(50)), .expired)
        #expect(screen.contents.hasSuffix("Expired\n"))
        #expect(screen.contents.contains("For: Admin (admin)"), "an empty household gets its first admin")
    }

    @Test func anUnknownPersonIsAClearError() async throws {
        let directory = try TemporaryDirectory()
        let store = try HearthStore(directory: directory.url)
        defer { try? store.close() }
        var options = PairingSession.Options()
        options.person = "Nobody"
        let session = PairingSession(store: store, port: 8080, options: options, isTerminal: false) { _ in }
        await #expect(throws: HearthError.self) { _ = try await session.run() }
    }

    @Test func ttlValuesAreReadAsPeopleWriteThem() {
        expectEqual(PairingDuration.parse("10m"), .seconds(600))
        expectEqual(PairingDuration.parse("90s"), .seconds(90))
        expectEqual(PairingDuration.parse("1h"), .seconds(3600))
        #expect(PairingDuration.parse("5s") == nil, "too short to walk to the tablet")
        #expect(PairingDuration.parse("2d") == nil)
        #expect(PairingDuration.parse("m") == nil)
    }
}
