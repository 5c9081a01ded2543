import Foundation
import HearthCore
@testable import HearthStore
import HearthTestSupport
import Testing

@Suite struct ChangeHubTests {
    /// Appends a change directly through the write path.
    static func note(_ store: HearthStore, _ number: Int) async throws {
        try await store.write(by: "test") { transaction in
            try transaction.record(entity: .note, entityId: "\(number)", op: .create, payload: ["n": .number(Double(number))])
        }
    }

    @Test func fiftySubscribersRacingWritesEachSeeEverySeqOnceInOrder() async throws {
        let directory = try TemporaryDirectory()
        let store = try HearthStore(directory: directory.url)
        defer { try? store.close() }
        let writes = 300

        try await withThrowingTaskGroup(of: (Int64, [Int64]).self) { group in
            group.addTask {
                for number in 1...writes { try await Self.note(store, number) }
                return (-1, [])
            }
            for subscriber in 0..<50 {
                group.addTask {
                    // Join at a scattered moment, from a cursor somewhat behind the log.
                    try await Task.sleep(for: .milliseconds(subscriber * 7 % 120))
                    let latest = try await store.latestSeq()
                    let cursor = max(0, latest - Int64(subscriber % 5) * 3)
                    var seen: [Int64] = []
                    for try await change in try await store.subscribe(after: cursor) {
                        seen.append(change.seq)
                        if change.seq == Int64(writes) { break }
                    }
                    return (cursor, seen)
                }
            }
            var checked = 0
            for try await (cursor, seen) in group where cursor >= 0 {
                expectEqual(seen, Array((cursor + 1)...Int64(writes)), "subscriber from \(cursor)")
                checked += 1
            }
            expectEqual(checked, 50)
        }
        expectEqual(store.hub.listenerCount, 0, "finished subscribers are removed")
    }

    @Test func aListenerThatFallsBehindIsToldToResync() async throws {
        let directory = try TemporaryDirectory()
        let store = try HearthStore(directory: directory.url)
        defer { try? store.close() }
        let subscription = try await store.subscribe(after: 0, bufferLimit: 4)
        for number in 1...20 { try await Self.note(store, number) }

        var received: [Int64] = []
        await #expect(throws: ChangeHubError.fellBehind) {
            for try await change in subscription { received.append(change.seq) }
        }
        // What it did get has no gaps, so its last seq is a safe cursor.
        expectEqual(received, Array(1...Int64(received.count)))
        expectEqual(store.hub.listenerCount, 0)
    }

    @Test func aCursorAheadOfTheLogIsRefused() async throws {
        let directory = try TemporaryDirectory()
        let store = try HearthStore(directory: directory.url)
        defer { try? store.close() }
        try await Self.note(store, 1)
        await #expect(throws: HearthError.cursorAhead(requested: 5, latest: 1)) {
            _ = try await store.subscribe(after: 5)
        }
        expectEqual(store.hub.listenerCount, 0)
    }

    @Test func onlyVisibleChangesAreDelivered() async throws {
        let directory = try TemporaryDirectory()
        let store = try HearthStore(directory: directory.url)
        defer { try? store.close() }
        for number in 1...6 { try await Self.note(store, number) }
        let evenOnly = try await store.subscribe(after: 0) { $0.seq % 2 == 0 }
        var seen: [Int64] = []
        for try await change in evenOnly {
            seen.append(change.seq)
            if change.seq == 6 { break }
        }
        expectEqual(seen, [2, 4, 6])
    }

    @Test func closingTheHubEndsSubscriptions() async throws {
        let directory = try TemporaryDirectory()
        let store = try HearthStore(directory: directory.url)
        let subscription = try await store.subscribe(after: 0)
        let ended = Task {
            var count = 0
            for try await _ in subscription { count += 1 }
            return count
        }
        try await Task.sleep(for: .milliseconds(50))
        try store.close()
        try await expectEqual(ended.value, 0)
    }
}

/// The `hearth` command writes to the same file as the running hub: its
/// changes must reach the hub's listeners too, in order and without gaps.
@Suite struct ExternalChangesTests {
    @Test func changesFromAnotherConnectionReachListeners() async throws {
        let directory = try TemporaryDirectory()
        let hub = try HearthStore(directory: directory.url)
        defer { try? hub.close() }
        let command = try HearthStore(directory: directory.url)
        defer { try? command.close() }

        let subscription = try await hub.subscribe(after: 0)
        let seen = Locked<[Int64]>([])
        let heard = Task {
            for try await change in subscription {
                let count = seen.withLock { $0.append(change.seq); return $0.count }
                if count == 3 { break }
            }
            return seen.withLock { $0 }
        }
        // Let the listener finish its (empty) replay and wait for live changes.
        try await Task.sleep(for: .milliseconds(200))
        try await ChangeHubTests.note(command, 1)  // as if `hearth pair` ran
        try await hub.publishExternalChanges()
        // Heard through the external check alone, before the hub writes anything.
        for _ in 0..<100 where seen.withLock({ $0.isEmpty }) { try await Task.sleep(for: .milliseconds(20)) }
        #expect(seen.withLock { $0 } == [1])
        try await ChangeHubTests.note(command, 2)  // not yet noticed…
        try await ChangeHubTests.note(hub, 3)      // …but the hub's own write catches up first
        let timeout = Task {
            try await Task.sleep(for: .seconds(5))
            subscription.cancel()
        }
        try await expectEqual(heard.value, [1, 2, 3])
        timeout.cancel()
        subscription.cancel()
    }
}
