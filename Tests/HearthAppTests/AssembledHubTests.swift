import Foundation
@testable import HearthApp
import HearthCore
import HearthStore
import HearthTestSupport
import HTTPTypes
import HearthHubTestSupport
import Logging
import NIOCore
import ServiceLifecycle
import Testing

/// The whole hub, built from a configuration file exactly as `hearth serve`
/// builds it, run as one service group and stopped as SIGTERM stops it.
@Suite(.serialized) struct AssembledHubTests {
    static func configuration(in directory: borrowing TemporaryDirectory) async throws -> HubConfiguration {
        let file = directory.url.appendingPathComponent("hearth.yaml")
        try """
        http:
          host: 127.0.0.1
          port: 0
        data:
          directory: \(directory.url.appendingPathComponent("data").path)
        household:
          name: Kowalscy
        discovery:
          enabled: false
        """.write(to: file, atomically: true, encoding: .utf8)
        return try await HubConfiguration.load(flags: .init(configFile: file.path), environment: [:])
    }

    @Test func aHubBuiltFromItsConfigurationServesKeepsWhatItAcknowledgedAndStops() async throws {
        let directory = try TemporaryDirectory()
        let configuration = try await Self.configuration(in: directory)
        let logger = Logger(label: "test")
        // Given a hub built and running
        let (ports, portKnown) = AsyncStream.makeStream(of: Int.self)
        let hub = try await Hub.build(configuration, logger: logger) { port in portKnown.yield(port) }
        let group = hub.serviceGroup(logger: logger)
        let running = Task { try await group.run() }
        var listening = ports.makeAsyncIterator()
        let port = try #require(await listening.next())
        // Then a second hub cannot take its data directory
        await #expect(throws: HubError.alreadyServing(directory: configuration.dataDirectory)) {
            _ = try await Hub.build(configuration, logger: logger)
        }
        // When a paired device asks for its health and writes a note
        let invitation = try await hub.store.createPairing(for: .newPerson(name: "Ania", role: .admin), deviceName: nil, by: "test", maker: .hubTerminal)
        let (_, token) = try await hub.store.redeemPairing(.secret(invitation.code.secret), deviceName: "Phone", userAgent: nil)
        let client = TestClient(host: "127.0.0.1", port: port, configuration: .init(timeout: .seconds(10)))
        let health = try await client.get("/api/v1/health")
        expectEqual(health.status, .ok)
        #expect(String(buffer: health.body).contains(#""status":"ok""#))
        let household = try await client.get("/api/v1/household", headers: [.authorization: "Bearer \(token)"])
        #expect(String(buffer: household.body).contains(#""name":"Kowalscy""#), "named as its file says")
        let created = try await client.post("/api/v1/notes", headers: [.authorization: "Bearer \(token)", .contentType: "application/json"],
                                            body: ByteBuffer(string: #"{"text": "Kupić chleb", "visibility": "shared"}"#))
        expectEqual(created.status, .created)
        let location = try #require(created.headers[.location])
        #expect(location.hasPrefix("/api/v1/notes/"), "the link is the note's address")
        try await client.shutdown()
        // And the hub is stopped as SIGTERM stops it
        await group.triggerGracefulShutdown()
        try await running.value
        try hub.close()
        // Then a hub built again on the same directory has the note
        let again = try await Hub.build(configuration, logger: logger)
        defer { try? again.close() }
        let id = try #require(UUID(uuidString: String(location.dropFirst("/api/v1/notes/".count))))
        try await expectEqual(again.store.note(id: id)?.text, "Kupić chleb")
    }
}
