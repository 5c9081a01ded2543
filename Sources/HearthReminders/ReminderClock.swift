import Foundation

/// Where the reminder service gets the time and waits for it. Injected, so
/// tests run weeks of reminders in milliseconds.
public protocol ReminderClock: Sendable {
    func now() -> Date
    /// Returns at `deadline` (or soon after); throws when cancelled.
    func sleep(until deadline: Date) async throws
}

/// The system's wall clock (with the household's correction, when the hub's
/// own clock was found wrong).
public struct SystemReminderClock: ReminderClock {
    /// Seconds added to the system time; see `HearthStore.currentTime()`.
    let time: @Sendable () -> Date

    public init(time: @escaping @Sendable () -> Date = { Date() }) {
        self.time = time
    }

    public func now() -> Date { time() }

    public func sleep(until deadline: Date) async throws {
        // Task.sleep counts monotonic time; the wall clock can jump (a Pi
        // gets its time late). The service never sleeps longer than a minute
        // at once, so a jump is noticed within that minute.
        let seconds = max(0, deadline.timeIntervalSince(now()))
        try await Task.sleep(for: .milliseconds(Int64((seconds * 1000).rounded(.up))))
    }
}
