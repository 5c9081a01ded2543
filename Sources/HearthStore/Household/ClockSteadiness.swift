import Foundation
import HearthCore

/// Whether the hub's time has stayed put long enough to act on it for good.
///
/// Emptying Trash and folding the change log act on "30 days ago" and "90
/// days ago": a clock moved a month ahead would delete every note in Trash,
/// other people's private notes included, and drop the change history. A
/// Pi has no real-time clock, so its time can jump at boot, when a phone
/// corrects it, or when the system sets it. Those two never act within a
/// day of a jump: either the jump was a mistake and someone puts it right,
/// or it was true and a day later is soon enough.
///
/// A jump is a correction of the hub's time (`/api/v1/clock/correct`), the
/// system's clock moving apart from the steady (monotonic) clock while the
/// hub runs, or a start whose time is before the last record or more than
/// `HearthStore.clockCorrectionLimit` after it.
final class ClockSteadiness: Sendable {
    /// Wall and steady time drift apart by less than this without a jump
    /// (NTP slews slowly; a suspended machine is seconds, not minutes).
    static let tolerance: TimeInterval = 300
    /// How long the time must stay put before Trash is emptied or the log folded.
    static let settling: TimeInterval = 86_400

    private struct State {
        /// Wall time and steady time read together, after the last jump.
        var wall: Date
        var steady: TimeInterval
        /// The steady time of the last jump; nil when there was none since start.
        var lastJump: TimeInterval?
    }

    /// Seconds on a clock that never jumps (the monotonic clock; in tests,
    /// the injected time, which tests move as if it passed).
    private let steadyNow: @Sendable () -> TimeInterval
    private let state: Locked<State>

    /// `startsJumped`: the hub starts at a time that is itself a jump from
    /// its last record (`isJump`).
    init(wall: Date, steadyNow: @escaping @Sendable () -> TimeInterval, startsJumped: Bool) {
        self.steadyNow = steadyNow
        let steady = steadyNow()
        state = Locked(State(wall: wall, steady: steady, lastJump: startsJumped ? steady : nil))
    }

    /// Whether moving from the last record's time to `time` is a jump: back
    /// in time, or further ahead than a hub is left off over a weekend.
    static func isJump(from lastStored: Date, to time: Date) -> Bool {
        time < lastStored.addingTimeInterval(-tolerance) || time > lastStored.addingTimeInterval(HearthStore.clockCorrectionLimit)
    }

    /// Takes a reading of the system's wall clock; a jump since the last is remembered.
    func observe(wall: Date) {
        let steady = steadyNow()
        state.withLock { state in
            let expected = state.wall.addingTimeInterval(steady - state.steady)
            if abs(wall.timeIntervalSince(expected)) > Self.tolerance { state.lastJump = steady }
            state.wall = wall
            state.steady = steady
        }
    }

    /// The hub's time was corrected by someone.
    func jumped() {
        let steady = steadyNow()
        state.withLock { $0.lastJump = steady }
    }

    /// Whether no jump happened in the last day (reading the wall clock first).
    func isSettled(wall: Date) -> Bool {
        observe(wall: wall)
        let steady = steadyNow()
        return state.withLock { state in state.lastJump.map { steady - $0 >= Self.settling } ?? true }
    }
}
