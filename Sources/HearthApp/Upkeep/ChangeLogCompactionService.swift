import Foundation
import HearthStore
import Logging
import ServiceLifecycle

/// Folds the change log older than the retention window into the latest
/// entry of each entity (deletions kept), at start and then daily, so the
/// log of a hub that runs for years stays the size of the household's data.
/// A device away longer than the window resyncs from a snapshot.
struct ChangeLogCompactionService: Service {
    let store: HearthStore
    let logger: Logger
    let retention: TimeInterval
    var interval: Duration = .seconds(86_400)

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    let removed = try await store.compactChanges(olderThan: retention)
                    if removed > 0 { logger.info("change log compacted", metadata: ["removed": "\(removed)"]) }
                } catch {
                    logger.warning("could not compact the change log", metadata: ["error": "\(error)"])
                }
                try? await Task.sleep(for: interval)
            }
        }
    }
}
