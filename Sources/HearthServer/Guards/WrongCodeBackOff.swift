import Foundation
import HearthCore

/// How a guesser of typed pairing codes is slowed without harming anyone
/// else: wrong short codes are counted per client address, and after a few
/// that address waits, twice as long after each further one; a right code
/// forgives it. Codes themselves are never burned by guessing, so nobody on
/// the Wi-Fi can end an admin's open invitation by typing nonsense. Against
/// a guesser with many addresses, the household as a whole takes at most
/// `householdLimit` wrong short codes in `householdWindow`; the QR code's
/// 128-bit secret is never held back. Kept in memory: a restart forgives.
final class WrongCodeBackOff: Sendable {
    /// Wrong short codes an address may send before it waits.
    static let freeTries = 5
    static let firstWait: TimeInterval = 30
    static let longestWait: TimeInterval = 15 * 60
    static let householdLimit = 200
    static let householdWindow: TimeInterval = 10 * 60

    private struct Address {
        var wrong = 0
        var waitUntil: Date?
        var lastWrong: Date
    }
    private struct State {
        var addresses: [String: Address] = [:]
        var recent: [Date] = []
    }
    private let state = Locked(State())

    /// Seconds `address` must wait before it may send a short code; nil when it may now.
    func wait(for address: String, at now: Date = Date()) -> Int? {
        state.withLock { state in
            state.recent.removeAll { now.timeIntervalSince($0) >= Self.householdWindow }
            var waits: [TimeInterval] = []
            if let until = state.addresses[address]?.waitUntil, until > now { waits.append(until.timeIntervalSince(now)) }
            if state.recent.count >= Self.householdLimit, let oldest = state.recent.first {
                waits.append(Self.householdWindow - now.timeIntervalSince(oldest))
            }
            return waits.max().map { max(1, Int($0.rounded(.up))) }
        }
    }

    /// A wrong short code from `address`.
    func wrong(from address: String, at now: Date = Date()) {
        state.withLock { state in
            // An address quiet for longer than the longest wait starts again; the list stays small.
            state.addresses = state.addresses.filter { now.timeIntervalSince($0.value.lastWrong) < Self.longestWait * 2 }
            var entry = state.addresses[address] ?? Address(lastWrong: now)
            entry.wrong += 1
            entry.lastWrong = now
            if entry.wrong >= Self.freeTries {
                let wait = min(Self.longestWait, Self.firstWait * pow(2, Double(entry.wrong - Self.freeTries)))
                entry.waitUntil = now.addingTimeInterval(wait)
            }
            state.addresses[address] = entry
            state.recent.append(now)
        }
    }

    /// A right code: the address is forgiven.
    func right(from address: String) {
        state.withLock { _ = $0.addresses.removeValue(forKey: address) }
    }
}
