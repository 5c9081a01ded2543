import HearthServer
import Hummingbird
import Logging
import ServiceLifecycle

/// Serves a router, as the hub builds it, on an ephemeral loopback port for
/// the length of a test: requests cross a real socket and the HTTP decoder,
/// as a device's do.
public enum LoopbackServer {
    public static func serve<T: Sendable>(_ router: HearthRouter,
                                          _ body: @escaping @Sendable (_ client: TestClient) async throws -> T) async throws -> T {
        let logger = Logger(label: "test")
        let (app, ports) = application(router, logger: logger)
        return try await serve(app, logger: logger, ports: ports) { port, _ in
            let client = TestClient(host: "127.0.0.1", port: port)
            do {
                let value = try await body(client)
                try? await client.shutdown()
                return value
            } catch {
                try? await client.shutdown()
                throw error
            }
        }
    }

    /// The router as an application on an ephemeral loopback port, and the
    /// port once it listens.
    static func application(_ router: HearthRouter, logger: Logger) -> (any Service, AsyncStream<Int>) {
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in portContinuation.yield(channel.localAddress?.port ?? 0) },
            logger: logger
        )
        return (app, ports)
    }

    /// Runs `service` in a service group until `body`, given the port it
    /// announced, returns; then stops it gracefully and waits for it.
    static func serve<T: Sendable>(_ service: any Service, logger: Logger, ports: AsyncStream<Int>,
                                   _ body: @escaping @Sendable (_ port: Int, _ group: ServiceGroup) async throws -> T) async throws -> T {
        let group = ServiceGroup(services: [service], logger: logger)
        return try await withThrowingTaskGroup(of: T?.self) { tasks in
            tasks.addTask {
                try await group.run()
                return nil
            }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else { throw CancellationError() }
            let result: T
            do {
                result = try await body(port, group)
            } catch {
                await group.triggerGracefulShutdown()
                throw error
            }
            await group.triggerGracefulShutdown()
            var value: T?
            for try await item in tasks { if let item { value = item } }
            return value ?? result
        }
    }
}
