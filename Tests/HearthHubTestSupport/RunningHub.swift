import Foundation
import HearthEditing
import HearthServer
import HearthStore
import HearthTestSupport
import Hummingbird
import Logging
import ServiceLifecycle

/// A real server on an ephemeral loopback port, with a real SQLite file,
/// run in a service group the way the hub runs it. Shared by the server's
/// tests and HearthKit's.
public enum RunningHub {
    public static func with<T: Sendable>(
        router: (@Sendable (HearthStore) -> HearthRouter)? = nil,
        limits: ConnectionLimits = .household,
        _ body: @escaping @Sendable (_ port: Int, _ store: HearthStore, _ group: ServiceGroup, _ adminToken: String) async throws -> T
    ) async throws -> T {
        let directory = try TemporaryDirectory()
        let store = try HearthStore(directory: directory.url)
        defer { try? store.close() }
        try await store.ensureHousehold(name: "Kowalski family", timeZone: "Europe/Warsaw")
        let invitation = try await store.createPairing(for: .newPerson(name: "Admin", role: .admin), deviceName: nil, by: "test", maker: .hubTerminal)
        let (_, adminToken) = try await store.redeemPairing(.secret(invitation.code.secret), deviceName: "Laptop", userAgent: nil)
        let logger = Logger(label: "test")
        let service: any Service, ports: AsyncStream<Int>
        if let router {
            (service, ports) = LoopbackServer.application(router(store), logger: logger)
        } else {
            let (announced, portContinuation) = AsyncStream.makeStream(of: Int.self)
            var settings = ServerSettings(host: "127.0.0.1", port: 0)
            settings.connectionLimits = limits
            service = HearthServer.application(store: store, settings: settings, logger: logger,
                                                noteSessions: NoteSessions(store: store, logger: logger)) { port in
                portContinuation.yield(port)
            }
            ports = announced
        }
        return try await LoopbackServer.serve(service, logger: logger, ports: ports) { port, group in
            try await body(port, store, group, adminToken)
        }
    }
}
