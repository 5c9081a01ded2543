import HearthStore
import Logging
import ServiceLifecycle

/// Deletes for good the notes that have been in Trash for 30 days: at start
/// and then every hour, so a note is never kept more than an hour too long.
struct TrashService: Service {
    let store: HearthStore
    let logger: Logger
    var interval: Duration = .seconds(3600)

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    let purged = try await store.purgeTrash(by: "hub")
                    if !purged.isEmpty { logger.info("trash emptied", metadata: ["notes": "\(purged.count)"]) }
                } catch {
                    logger.warning("could not empty the trash", metadata: ["error": "\(error)"])
                }
                try? await Task.sleep(for: interval)
            }
        }
    }
}
