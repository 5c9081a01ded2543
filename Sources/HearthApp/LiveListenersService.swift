import HearthStore
import ServiceLifecycle

/// Ends every live WebSocket subscription when the hub begins to stop, so the
/// HTTP server's graceful shutdown is not held open by listeners that would
/// otherwise wait for changes forever. Listed after the HTTP server in the
/// service group, so it is told to stop first.
struct LiveListenersService: Service {
    let hub: ChangeHub

    func run() async throws {
        try? await gracefulShutdown()
        hub.closeAll()
    }
}
