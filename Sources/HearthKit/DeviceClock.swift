import Foundation

/// The device's wall-clock time, and a way to wait for a moment on it.
/// Injected so tests can move a day forward without waiting for it.
struct DeviceClock: Sendable {
    var now: @Sendable () -> Date
    var sleepUntil: @Sendable (Date) async throws -> Void

    /// The device's own clock. A long wait is taken in steps of at most
    /// 15 minutes, each checking the time again, because the wall clock can
    /// move under a sleeping task (the user sets it, the network corrects it,
    /// the device was suspended), and midnight must not be missed by hours.
    static let system = DeviceClock(now: Date.init) { moment in
        while true {
            let left = moment.timeIntervalSinceNow
            guard left > 0 else { return }
            try await Task.sleep(for: .seconds(min(left, 15 * 60)))
        }
    }
}
