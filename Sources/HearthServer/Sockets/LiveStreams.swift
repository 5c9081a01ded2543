import HearthStore
import ServiceLifecycle

/// The live stream's listeners (`/api/v1/live`, and every other subscriber
/// of the change log), as a service of the hub's group: listed after the
/// HTTP server, so it is told to stop first, it ends them all, and the
/// server's graceful shutdown is not held open by listeners that would
/// otherwise wait for changes forever.
public struct LiveStreams: Service {
    let hub: ChangeHub

    public init(hub: ChangeHub) {
        self.hub = hub
    }

    public func run() async throws {
        try? await gracefulShutdown()
        hub.closeAll()
    }
}
