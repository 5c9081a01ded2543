import Foundation
import GRDB
import HearthCore

/// The hub's hybrid logical clock. Every field a person changes through the
/// API or the web is stamped with one of its readings, and it hears of every
/// reading a device pushes, so a device that has synced since stamps later.
final class HubClock: Sendable {
    private let state: Locked<HybridClock>

    /// Starts after every reading stored, so a restart (or a system clock set
    /// back) never stamps earlier than what came before.
    init(latestIn db: Database) throws {
        let latest = try String.fetchOne(db, sql: "SELECT MAX(hlc) FROM sync_clocks").flatMap(HybridTime.init)
        state = Locked(HybridClock(node: HybridTime.hubNode, latest: latest))
    }

    func next(at time: Date) -> HybridTime {
        state.withLock { $0.next(physical: time.millisecondsSince1970) }
    }

    func observe(_ time: HybridTime) {
        state.withLock { $0.observe(time) }
    }

    /// The latest reading, as devices are told it after a sync.
    var latest: HybridTime { state.withLock { $0.latest } }
}
