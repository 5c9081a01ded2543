/// Wakes a sleeping service early: for the reminder service a schedule, a
/// medication or a dose changed; for the escalation ladder an alert did. The
/// plan it is sleeping on may be out of date.
public actor WakeSignal {
    private var rung = false
    private var waiter: CheckedContinuation<Void, Never>?

    public init() {}

    public func ring() {
        if let waiter {
            self.waiter = nil
            waiter.resume()
        } else {
            rung = true
        }
    }

    /// Returns when rung (at once if it was rung since the last wait), or
    /// when the waiting task is cancelled.
    public func wait() async {
        if rung {
            rung = false
            return
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if Task.isCancelled { continuation.resume() } else { waiter = continuation }
            }
        } onCancel: {
            Task { await self.ring() }
        }
    }
}
