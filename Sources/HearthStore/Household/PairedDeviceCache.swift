import Foundation
import HearthCore

/// Who each presented token belongs to, so a request does not read three
/// tables before its route runs. Every committed change to a device, a
/// person or a care link — from this process or, within the external-change
/// check's second, from the `hearth` CLI — empties it, so a revoked device
/// or an archived person is refused on the next request after the change is
/// published.
final class PairedDeviceCache: Sendable {
    /// Whether a change is to what a `PairedDevice` is read from.
    static func changesIdentity(_ change: Change) -> Bool {
        switch change.entity {
        case .device, .person, .careLink: true
        case .household, .pairingCode, .note, .medication, .schedule, .dose, .alert, .alertApp, .panel, .displaySettings, .gameScore, .awayChoice: false
        }
    }
    /// Far more devices than a household pairs; past it the cache starts over.
    static let capacity = 1024

    private struct State {
        var generation = 0
        var byTokenHash: [Data: PairedDevice] = [:]
    }
    private let state = Locked(State())

    /// The cached device for a token hash, and the generation to hand back
    /// to `remember` when it had to be read from the database.
    func lookup(tokenHash: Data) -> (PairedDevice?, generation: Int) {
        state.withLock { ($0.byTokenHash[tokenHash], $0.generation) }
    }

    /// Keeps what a read found, unless a change was published since the
    /// read began (the read may have seen the database before it).
    func remember(_ paired: PairedDevice, tokenHash: Data, readAtGeneration generation: Int) {
        state.withLock { state in
            guard state.generation == generation else { return }
            if state.byTokenHash.count >= Self.capacity { state.byTokenHash.removeAll(keepingCapacity: true) }
            state.byTokenHash[tokenHash] = paired
        }
    }

    func forget(after changes: [Change]) {
        guard changes.contains(where: Self.changesIdentity) else { return }
        state.withLock { state in
            state.generation += 1
            state.byTokenHash.removeAll(keepingCapacity: true)
        }
    }
}
