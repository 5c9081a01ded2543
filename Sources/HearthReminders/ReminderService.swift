import Foundation
import HearthCore
import HearthStore
import Logging
import ServiceLifecycle

/// Reminds the senior of due doses and tells caregivers of missed ones.
/// It sleeps until the next planned dose needs attention (no polling), wakes
/// at once when a medication, schedule or dose changes, and keeps no state of
/// its own: every pass reads and writes SQLite (`HearthStore.remind(at:as:)`),
/// so after a restart or a power cut it simply catches up.
public struct ReminderService: Service {
    /// Only what the service uses of the store (`DoseReminding`).
    let store: any DoseReminding
    let clock: any ReminderClock
    let logger: Logger
    /// The longest sleep: the wall clock is re-read at least this often, so a
    /// clock set late (after boot, by NTP or by hand) is noticed.
    let longestSleep: TimeInterval
    /// Called after each pass; tests watch the service's plan through it.
    let afterPass: @Sendable (ReminderPass) async -> Void

    public init(store: any DoseReminding, clock: any ReminderClock, logger: Logger, longestSleep: TimeInterval = 60,
                afterPass: @escaping @Sendable (ReminderPass) async -> Void = { _ in }) {
        self.store = store
        self.clock = clock
        self.logger = logger
        self.longestSleep = longestSleep
        self.afterPass = afterPass
    }

    public func run() async throws {
        let signal = WakeSignal()
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.ringOnReplanningChanges(signal) }
            group.addTask {
                await cancelWhenGracefulShutdown { await self.remindUntilCancelled(signal: signal) }
            }
            // Either ending (shutdown) ends the other.
            await group.next()
            group.cancelAll()
        }
    }

    /// Rings `signal` for every committed change that can move a planned
    /// dose, until cancelled (`HearthStore.ringOnChanges`).
    func ringOnReplanningChanges(_ signal: WakeSignal) async {
        var relevance = ReplanningChanges()
        await store.ringOnChanges(signal, subscribedTo: { ReplanningChanges.mayReplan($0.entity) }, ringing: { relevance.replans($0) })
    }

    func remindUntilCancelled(signal: WakeSignal) async {
        var failures = 0
        while !Task.isCancelled {
            let now = clock.now()
            var next = now.addingTimeInterval(longestSleep)
            do {
                let pass = try await store.remind(at: now, as: .reminderService)
                failures = 0
                for alert in pass.raised {
                    logger.notice("alert raised", metadata: ["kind": "\(alert.kind.rawValue)", "alert": "\(alert.id.text)"])
                }
                if let check = pass.nextCheck { next = min(next, max(check, now)) }
                await afterPass(pass)
            } catch {
                // The database is busy or failing; try again soon, not in a tight loop.
                failures += 1
                logger.error("reminder pass failed", metadata: ["error": "\(error)", "attempt": "\(failures)"])
                next = now.addingTimeInterval(min(60, Double(1 << min(failures, 6))))
            }
            let deadline = next
            await withTaskGroup(of: Void.self) { group in
                group.addTask { try? await clock.sleep(until: deadline) }
                group.addTask { await signal.wait() }
                await group.next()
                group.cancelAll()
            }
        }
    }
}
