/// Makes `HybridTime` readings for one node: each later than every reading
/// this clock made or heard of, and as close to physical time as that allows.
/// A value type; whoever owns it keeps it behind a lock or an actor.
public struct HybridClock: Sendable, Hashable {
    public let node: String
    /// The latest reading made or heard of.
    public private(set) var latest: HybridTime

    public init(node: String, latest: HybridTime? = nil) {
        self.node = node
        self.latest = latest ?? HybridTime(milliseconds: 0, counter: 0, node: node)
    }

    /// A reading for an event happening now, at physical time `milliseconds`.
    /// When 65,536 events fall within one millisecond the next one borrows the
    /// following millisecond, so the clock never stands still or goes back.
    public mutating func next(physical milliseconds: Int64) -> HybridTime {
        if milliseconds > latest.milliseconds {
            latest = HybridTime(milliseconds: milliseconds, counter: 0, node: node)
        } else if latest.counter < HybridTime.maximumCounter {
            latest = HybridTime(milliseconds: latest.milliseconds, counter: latest.counter + 1, node: node)
        } else {
            latest = HybridTime(milliseconds: latest.milliseconds + 1, counter: 0, node: node)
        }
        return latest
    }

    /// Takes in a reading from elsewhere, so every later `next` is after it.
    public mutating func observe(_ time: HybridTime) {
        guard (time.milliseconds, time.counter) > (latest.milliseconds, latest.counter) else { return }
        latest = HybridTime(milliseconds: time.milliseconds, counter: time.counter, node: node)
    }
}
