import HearthCore

/// The discovery state the health route shows, written by the discovery
/// service and read by HTTP requests on other threads. It also remembers
/// whether the current outage was already logged, so an admin reading the
/// log sees one warning per outage instead of one per retry.
final class DiscoveryBoard: Sendable {
    private struct State {
        var status: DiscoveryStatus
        var warnedOfOutage = false
    }

    private let state: Locked<State>

    init(_ initial: DiscoveryStatus) {
        state = Locked(State(status: initial))
    }

    var current: DiscoveryStatus { state.withLock { $0.status } }

    func advertising(_ services: [DiscoveryStatus.Service]) {
        state.withLock { state in
            state.status = DiscoveryStatus(state: .advertising, services: services)
            state.warnedOfOutage = false
        }
    }

    /// Marks the hub as not advertised; true the first time in an outage.
    func waiting() -> Bool {
        state.withLock { state in
            state.status = DiscoveryStatus(state: .waitingForAvahi)
            defer { state.warnedOfOutage = true }
            return !state.warnedOfOutage
        }
    }
}
