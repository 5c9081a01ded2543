import Foundation
import HearthCore

extension HearthStore {
    /// Rings `signal` for every committed change that `subscribedTo` lets
    /// through and `ringing` wants (it may keep state: it is called in
    /// order, on one task), until cancelled: how a service that sleeps until
    /// its next moment (reminders, the escalation ladder) hears that its plan
    /// may be out of date. A listener that fell behind (a burst of changes)
    /// is closed by the hub, or the database could not be read: it rings
    /// once, since it may have missed one, and listens again from the newest.
    public func ringOnChanges(_ signal: WakeSignal, subscribedTo visible: @escaping @Sendable (Change) -> Bool,
                              ringing rings: (Change) -> Bool = { _ in true }) async {
        while !Task.isCancelled {
            do {
                let subscription = try await subscribe(after: try await latestSeq(), where: visible)
                await withTaskCancellationHandler {
                    do {
                        for try await change in subscription where rings(change) { await signal.ring() }
                    } catch {}
                } onCancel: {
                    subscription.cancel()
                }
            } catch {
                // The database could not be read; the service's own wake-ups go on meanwhile.
                try? await Task.sleep(for: .seconds(1))
            }
            await signal.ring()
            // Not in a tight loop if the hub is closing.
            try? await Task.sleep(for: .milliseconds(100))
        }
    }
}
