import HearthServer
import HearthStore
import Logging
import ServiceLifecycle

/// A hub built and not yet running: its store, the HTTP/WebSocket
/// application people and devices talk to, and every service in the order
/// the group starts them (it stops them in reverse: see
/// Docs/architecture.md, "Stopping"). `Hub.serve` runs one; tests run one
/// the same way and stop it with `triggerGracefulShutdown()`.
public struct AssembledHub: Sendable {
    public let store: HearthStore
    public let application: HearthServer.App
    public let services: [ServiceGroupConfiguration.ServiceConfiguration]
    let lock: DataDirectoryLock

    /// The group that runs every service until SIGTERM or SIGINT (or until
    /// told to stop), finishing what is in flight.
    public func serviceGroup(logger: Logger) -> ServiceGroup {
        var configuration = ServiceGroupConfiguration(
            services: services,
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger
        )
        // systemd waits 5 s; leave room to close the database after this.
        configuration.maximumGracefulShutdownDuration = .seconds(3)
        return ServiceGroup(configuration: configuration)
    }

    /// Closes the store and lets another hub take the data directory; once
    /// the group has stopped.
    public func close() throws {
        defer {
            lock.withdraw()
            lock.release()
        }
        try store.close()
    }
}
