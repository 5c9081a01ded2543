import Foundation
import GRDB
import HearthCore
@testable import HearthStore
import Testing

@Suite struct WritePathTests {
    struct Boom: Error {}

    @Test func eachMutationAppendsExactlyOneChange() async throws {
        let directory = try TemporaryDirectory()
        let store = try HearthStore(directory: directory.url)
        defer { try? store.close() }
        let household = try await store.ensureHousehold(name: "Home", timeZone: "Europe/Warsaw")
        #expect(try await store.latestSeq() == 1)

        _ = try await store.updateHousehold(name: "Kowalski home", timeZone: nil, by: "test")
        _ = try await store.updateHousehold(name: nil, timeZone: "America/New_York", by: "test")
        let changes = try await store.changes(after: 0, limit: 10)
        #expect(changes.map(\.seq) == [1, 2, 3])
        #expect(changes.map(\.op) == [.create, .update, .update])
        #expect(changes[1].payload == ["name": "Kowalski home"])
        #expect(changes[2].payload == ["timeZone": "America/New_York"])
        #expect(changes.allSatisfy { $0.entityId == household.id.uuidString.lowercased() })
        #expect(changes[1].actor == "test")
    }

    @Test func anUnchangedValueAppendsNothing() async throws {
        let directory = try TemporaryDirectory()
        let store = try HearthStore(directory: directory.url)
        defer { try? store.close() }
        try await store.ensureHousehold(name: "Home", timeZone: "Europe/Warsaw")
        _ = try await store.updateHousehold(name: "Home", timeZone: "Europe/Warsaw", by: "test")
        #expect(try await store.latestSeq() == 1)
    }

    @Test func invalidInputLeavesTheDataAsItWas() async throws {
        let directory = try TemporaryDirectory()
        let store = try HearthStore(directory: directory.url)
        defer { try? store.close() }
        try await store.ensureHousehold(name: "Home", timeZone: "Europe/Warsaw")
        await #expect(throws: HearthError.self) {
            _ = try await store.updateHousehold(name: "   ", timeZone: nil, by: "test")
        }
        await #expect(throws: HearthError.self) {
            _ = try await store.updateHousehold(name: nil, timeZone: "Mars/Olympus_Mons", by: "test")
        }
        #expect(try await store.household()?.name == "Home")
        #expect(try await store.latestSeq() == 1)
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
                try transaction.record(entity: "household", entityId: "x", op: .update, payload: ["name": "Lost"])
                throw Boom()
            }
        }
        // A later committed write is the next thing the listener hears: the
        // rolled-back change never reached it, and its seq was not used.
        _ = try await store.updateHousehold(name: "Kept", timeZone: nil, by: "test")
        var iterator = subscription.makeAsyncIterator()
        let next = try await iterator.next()
        #expect(next?.payload == ["name": "Kept"])
        #expect(next?.seq == 2)
        #expect(try await store.household()?.name == "Kept")
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
        _ = try await store.updateHousehold(name: "Committed", timeZone: nil, by: "test")
        let (seq, name) = try await heard.value
        #expect(seq == 2)
        #expect(name == "Committed")
        subscription.cancel()
    }
}
