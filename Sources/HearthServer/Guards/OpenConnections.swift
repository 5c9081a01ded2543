import HearthCore

/// How many connections each address holds open, for the per-address caps
/// of the hub's listeners.
final class OpenConnections: Sendable {
    private let counts = Locked<[String: Int]>([:])

    /// Counts one more from `address`; false (and not counted) when it already holds `limit`.
    func enter(_ address: String, limit: Int) -> Bool {
        counts.withLock { counts in
            guard counts[address, default: 0] < limit else { return false }
            counts[address, default: 0] += 1
            return true
        }
    }

    func leave(_ address: String) {
        counts.withLock { counts in
            counts[address, default: 1] -= 1
            if counts[address] == 0 { counts[address] = nil }
        }
    }

    /// Connections open from `address` now.
    func count(_ address: String) -> Int {
        counts.withLock { $0[address, default: 0] }
    }
}
