import Foundation
import HearthCore
import HearthReminders

/// A reminder clock that only moves when a test moves it. It records each
/// sleep's deadline, so a test sees exactly when the service means to wake.
final class ManualClock: ReminderClock {
    private struct Sleeper {
        var id: UUID
        var deadline: Date
        var continuation: CheckedContinuation<Void, any Error>
    }

    let time: SimulatedTime
    private let sleepers = Locked<[Sleeper]>([])

    init(_ time: SimulatedTime) { self.time = time }

    func now() -> Date { time.now }

    func sleep(until deadline: Date) async throws {
        let id = UUID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow = sleepers.withLock { list -> Bool in
                    if deadline <= time.now || Task.isCancelled { return true }
                    list.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let cancelled = sleepers.withLock { list -> Sleeper? in
                guard let index = list.firstIndex(where: { $0.id == id }) else { return nil }
                return list.remove(at: index)
            }
            cancelled?.continuation.resume(throwing: CancellationError())
        }
    }

    /// The deadline the service sleeps until, once it sleeps (nil after `timeout`).
    func sleepingUntil(timeout: Duration = .seconds(5)) async -> Date? {
        let start = ContinuousClock.now
        while ContinuousClock.now - start < timeout {
            if let deadline = sleepers.withLock({ $0.first?.deadline }) { return deadline }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return nil
    }

    /// Sets the time and wakes every sleeper whose deadline has come.
    func set(_ date: Date) {
        time.set(date)
        let due = sleepers.withLock { list -> [Sleeper] in
            let due = list.filter { $0.deadline <= date }
            list.removeAll { $0.deadline <= date }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }
}
