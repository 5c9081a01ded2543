/// How long to wait before asking the mDNS responder again: 1 s, doubling
/// to at most 60 s, so a hub whose avahi-daemon is gone for hours neither
/// floods the log nor waits long once the daemon is back.
public struct RetryDelay: Sendable, Equatable {
    public let first: Duration
    public let longest: Duration
    public private(set) var next: Duration

    public init(first: Duration = .seconds(1), longest: Duration = .seconds(60)) {
        self.first = first
        self.longest = longest
        self.next = first
    }

    /// The delay to wait now; the one after it is twice as long.
    public mutating func take() -> Duration {
        let delay = next
        next = min(next * 2, longest)
        return delay
    }

    /// Back to the first delay, once the responder has accepted everything.
    public mutating func reset() {
        next = first
    }
}
