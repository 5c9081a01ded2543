import Foundation
import HearthCore

/// What the webhook service has done, read by the health route.
final class WebhookBoard: Sendable {
    private let state: Locked<WebhookStatus>

    init(configured: [CareAlert.Kind]) {
        state = Locked(WebhookStatus(configured: configured.map(\.rawValue).sorted()))
    }

    var current: WebhookStatus { state.withLock { $0 } }

    func queued() { state.withLock { $0.pending += 1 } }

    func delivered(_ kind: CareAlert.Kind) {
        state.withLock { status in
            status.pending -= 1
            status.delivered += 1
            status.failures.removeAll { $0.kind == kind.rawValue }
        }
    }

    func failed(_ kind: CareAlert.Kind, attempts: Int, error: String, at: Date, retrying: Bool) {
        state.withLock { status in
            if !retrying { status.pending -= 1 }
            status.failures.removeAll { $0.kind == kind.rawValue }
            status.failures.append(.init(kind: kind.rawValue, attempts: attempts, error: error, at: at, retrying: retrying))
            status.failures.sort { $0.kind < $1.kind }
        }
    }
}
