/// Wakes the reminder service early: a schedule, a medication or a dose
/// changed, so the plan it is sleeping on may be out of date.
actor WakeSignal {
    private var rung = false
    private var waiter: CheckedContinuation<Void, Never>?

    func ring() {
        if let waiter {
            self.waiter = nil
            waiter.resume()
        } else {
            rung = true
        }
    }

    /// Returns when rung (at once if it was rung since the last wait), or
    /// when the waiting task is cancelled.
    func wait() async {
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
