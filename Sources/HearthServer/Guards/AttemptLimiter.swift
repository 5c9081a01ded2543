import HearthCore
import Foundation

/// Limits how often one client address may try something (pairing codes):
/// at most `limit` attempts in any `window`. Kept in memory: a restart
/// forgives. Wrong typed codes are slowed further (`WrongCodeBackOff`).
final class AttemptLimiter: Sendable {
    let limit: Int
    let window: TimeInterval
    private let attempts = Locked<[String: [Date]]>([:])

    init(limit: Int, window: TimeInterval) {
        self.limit = limit
        self.window = window
    }

    /// Records an attempt; returns the seconds to wait if it is over the limit.
    func attempt(from address: String, at now: Date = Date()) -> Int? {
        attempts.withLock { attempts in
            // Forget old entries so a long-running hub does not grow.
            if attempts.count > 10_000 { attempts = attempts.filter { $0.value.contains { now.timeIntervalSince($0) < window } } }
            var recent = (attempts[address] ?? []).filter { now.timeIntervalSince($0) < window }
            if recent.count >= limit, let oldest = recent.first {
                attempts[address] = recent
                return max(1, Int((window - now.timeIntervalSince(oldest)).rounded(.up)))
            }
            recent.append(now)
            attempts[address] = recent
            return nil
        }
    }
}
