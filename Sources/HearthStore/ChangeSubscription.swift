import HearthCore

/// Every change after a cursor, exactly once and in order: first replayed
/// from the log a page at a time, then live from the hub, skipping any live
/// change the replay already delivered.
public struct ChangeSubscription: AsyncSequence, Sendable {
    public typealias Element = Change
    static let replayPageSize = 256

    /// The cursor the subscriber asked for.
    public let cursor: Int64
    /// The newest `seq` when the subscription began; sent to clients as `hello`.
    public let latestAtStart: Int64
    let live: LiveChanges
    let isVisible: @Sendable (Change) -> Bool
    let readPage: @Sendable (Int64) async throws -> [Change]

    /// Stops the subscription; the iterator then ends.
    public func cancel() { live.cancel() }

    public func makeAsyncIterator() -> Iterator {
        Iterator(subscription: self, position: cursor, live: live.stream.makeAsyncIterator())
    }

    public struct Iterator: AsyncIteratorProtocol {
        let subscription: ChangeSubscription
        /// The last `seq` handled (delivered or filtered out).
        var position: Int64
        var live: AsyncThrowingStream<Change, any Error>.Iterator
        var page: [Change] = []
        var replaying = true

        public mutating func next() async throws -> Change? {
            while replaying {
                if page.isEmpty {
                    page = try await subscription.readPage(position)
                    if page.isEmpty {
                        replaying = false
                        break
                    }
                    page.reverse()  // pop from the end in seq order
                }
                let change = page.removeLast()
                position = change.seq
                if subscription.isVisible(change) { return change }
            }
            while let change = try await live.next() {
                guard change.seq > position else { continue }  // already replayed
                position = change.seq
                if subscription.isVisible(change) { return change }
            }
            return nil
        }
    }
}
