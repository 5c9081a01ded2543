import HearthStore
import Logging
import ServiceLifecycle

/// Publishes changes that the `hearth` command made to the database while the
/// hub was running (pairing a device, revoking one, adding a person), so open
/// pages and devices hear of them within about a second.
struct ExternalChangesService: Service {
    let store: HearthStore
    let logger: Logger
    var interval: Duration = .seconds(1)

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    try await store.publishExternalChanges()
                } catch {
                    logger.warning("could not check for outside changes", metadata: ["error": "\(error)"])
                }
                try? await Task.sleep(for: interval)
            }
        }
    }
}
