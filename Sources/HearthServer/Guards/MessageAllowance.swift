/// A token bucket: `burst` messages at once, refilled at `perSecond`; so a
/// flood is stopped while a burst after a network stall is not.
struct MessageAllowance {
    let perSecond: Double
    let burst: Double
    private var tokens: Double
    private var refilledAt: ContinuousClock.Instant

    init(perSecond: Int, burst: Int, now: ContinuousClock.Instant = .now) {
        self.perSecond = Double(perSecond)
        self.burst = Double(burst)
        tokens = Double(burst)
        refilledAt = now
    }

    /// Whether one more message may be taken now.
    mutating func take(now: ContinuousClock.Instant = .now) -> Bool {
        let elapsed = now - refilledAt
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        tokens = min(burst, tokens + seconds * perSecond)
        refilledAt = now
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}
