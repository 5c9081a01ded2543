import Foundation
import GRDB
import HearthCore
@testable import HearthStore
import HearthTestSupport
import Testing

@Suite struct WritePathTests {
    struct Boom: Error {}

    @Test func eachMutationAppendsExactlyOneChange() async throws {
        let directory = try TemporaryDirectory()
        let store = try HearthStore(directory: directory.url)
        defer { try? store.close() }
        let household = try await store.ensureHousehold(name: "Home", timeZone: "Europe/Warsaw")
        try await expectEqual(store.latestSeq(), 1)

        _ = try await store.updateHousehold(name: "Kowalski home", timeZone: nil, as: .hubTerminal, by: "test")
        _ = try await store.updateHousehold(name: nil, timeZone: "America/New_York", as: .hubTerminal, by: "test")
        let changes = try await store.changes(after: 0, limit: 10)
        expectEqual(changes.map(\.seq), [1, 2, 3])
        expectEqual(changes.map(\.op), [.create, .update, .update])
        expectEqual(changes[1].payload, ["name": "Kowalski home"])
        expectEqual(changes[2].payload, ["timeZone": "America/New_York"])
        #expect(changes.allSatisfy { $0.entityId == household.id.uuidString.lowercased() })
        expectEqual(changes[1].origin, "test")
    }

    @Test func anUnchangedValueAppendsNothing() async throws {
        let directory = try TemporaryDirectory()
        let store = try HearthStore(directory: directory.url)
        defer { try? store.close() }
        try await store.ensureHousehold(name: "Home", timeZone: "Europe/Warsaw")
        _ = try await store.updateHousehold(name: "Home", timeZone: "Europe/Warsaw", as: .hubTerminal, by: "test")
        try await expectEqual(store.latestSeq(), 1)
    }

    @Test func invalidInputLeavesTheDataAsItWas() async throws {
        let directory = try TemporaryDirectory()
        let store = try HearthStore(directory: directory.url)
        defer { try? store.close() }
        try await store.ensureHousehold(name: "Home", timeZone: "Europe/Warsaw")
        await #expect(throws: HearthError.self) {
            _ = try await store.updateHousehold(name: "   ", timeZone: nil, as: .hubTerminal, by: "test")
        }
        await #expect(throws: HearthError.self) {
            _ = try await store.updateHousehold(name: nil, timeZone: "Mars/Olympus_Mons", as: .hubTerminal, by: "test")
        }
        try await expectEqual(store.household()?.name, "Home")
        try await expectEqual(store.latestSeq(), 1)
    }

    @Test func aRolledBackWriteIsNeitherStoredNorPublished() async throws {
        let directory = try TemporaryDirectory()
        let store = try HearthStore(directory: directory.url)
        defer { try? store.close() }
        try await store.ensureHousehold(name: "Home", timeZone: "Europe/Warsaw")
        let subscription = try await store.subscribe(after: 1)

        await #expect(throws: Boom.self) {
            try await store.write(by: "test") { transaction in
                try transaction.db.execute(sql: "UPDATE household SET name = 'Lost'")
                try transaction.record(entity: .household, entityId: "x", op: .update, payload: ["name": "Lost"])
                throw Boom()
            }
        }
        // A later committed write is the next thing the listener hears: the
        // rolled-back change never reached it, and its seq was not used.
        _ = try await store.updateHousehold(name: "Kept", timeZone: nil, as: .hubTerminal, by: "test")
        var iterator = subscription.makeAsyncIterator()
        let next = try await iterator.next()
        expectEqual(next?.payload, ["name": "Kept"])
        expectEqual(next?.seq, 2)
        try await expectEqual(store.household()?.name, "Kept")
        subscription.cancel()
    }

    @Test func listenersHearOfAChangeOnlyOnceItIsCommitted() async throws {
        let directory = try TemporaryDirectory()
        let store = try HearthStore(directory: directory.url)
        defer { try? store.close() }
        try await store.ensureHousehold(name: "Home", timeZone: "Europe/Warsaw")
        let subscription = try await store.subscribe(after: 1)
        let heard = Task {
            var iterator = subscription.makeAsyncIterator()
            let change = try await iterator.next()
            // Read through another connection: the data must already be there.
            let name = try await store.household()?.name
            return (change?.seq, name)
        }
        _ = try await store.updateHousehold(name: "Committed", timeZone: nil, as: .hubTerminal, by: "test")
        let (seq, name) = try await heard.value
        expectEqual(seq, 2)
        expectEqual(name, "Committed")
        subscription.cancel()
    }

    /// Writes that arrive together share a commit (`GroupCommit`); one that
    /// fails — by throwing or by breaking a constraint — is rolled back alone,
    /// and each caller hears the outcome of its own write.
    @Test func concurrentWritesCommitTogetherAndAFailureRollsBackAlone() async throws {
        let directory = try TemporaryDirectory()
        let store = try HearthStore(directory: directory.url)
        defer { try? store.close() }
        try await store.ensureHousehold(name: "Home", timeZone: "Europe/Warsaw")
        let subscription = try await store.subscribe(after: 1)
        let writes = 60
        let outcomes = await withTaskGroup(of: (Int, Bool).self) { group in
            for index in 0..<writes {
                group.addTask {
                    do {
                        try await store.write(by: "test") { transaction in
                            try transaction.record(entity: .note, entityId: "\(index)", op: .create, payload: ["index": .number(Double(index))])
                            switch index % 6 {
                            case 1: throw Boom()
                            // NOT NULL broken after a change was logged in the same write.
                            case 4: try transaction.db.execute(sql: "UPDATE household SET name = NULL")
                            default: break
                            }
                        }
                        return (index, true)
                    } catch {
                        return (index, false)
                    }
                }
            }
            return await group.reduce(into: [Int: Bool]()) { $0[$1.0] = $1.1 }
        }
        let kept = Set((0..<writes).filter { $0 % 6 != 1 && $0 % 6 != 4 })
        expectEqual(Set(outcomes.filter(\.value).keys), kept, "each caller hears of its own write")
        let logged = try await store.changes(after: 1, limit: 1000)
        expectEqual(Set(logged.map(\.entityId)), Set(kept.map(String.init)))
        expectEqual(logged.map(\.seq), Array(2...Int64(1 + kept.count)), "no seq taken by a rolled-back write")
        var heard: [Int64] = []
        for try await change in subscription {
            heard.append(change.seq)
            if heard.count == kept.count { break }
        }
        expectEqual(heard, logged.map(\.seq), "published once each, in commit order")
        try await expectEqual(store.household()?.name, "Home")
    }
}
