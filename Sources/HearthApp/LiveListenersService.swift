import HearthEditing
import HearthServer
import HearthStore
import ServiceLifecycle

/// Ends every live WebSocket subscription and note editing session when the
/// hub begins to stop, so the HTTP server's graceful shutdown is not held
/// open by listeners that would otherwise wait for changes forever. Listed after the HTTP server in the
/// service group, so it is told to stop first.
struct LiveListenersService: Service {
    let hub: ChangeHub
    /// Notes open for editing: their state is written and editors told.
    let noteSessions: NoteSessions

    func run() async throws {
        try? await gracefulShutdown()
        hub.closeAll()
        await noteSessions.closeAll()
    }
}
