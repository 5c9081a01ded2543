import Foundation
import HearthHubTestSupport
import HearthCore
@testable import HearthServer
import HearthStore
import Hummingbird
import HearthTestSupport
import Testing

/// Kept answers are reused only while nothing has changed, only until their
/// own time runs out, and only for the person they were read for.
@Suite struct ReadCacheTests {
    /// Counts the readings a cache asks for.
    final class Readings: Sendable {
        private let count = Locked(0)
        var total: Int { count.withLock { $0 } }

        func read(_ json: JSONValue, validUntil: Date = .distantFuture) -> (json: JSONValue, validUntil: Date) {
            count.withLock { $0 += 1 }
            return (json, validUntil)
        }
    }

    static func text(_ body: ByteBuffer) -> String { String(buffer: body) }

    let senior = PermissionPolicy.Actor(personId: UUID(), role: .senior)
    let caregiver = PermissionPolicy.Actor(personId: UUID(), role: .caregiver)

    @Test func anAnswerIsReusedUntilTheNextChangeIsPublished() async throws {
        let directory = try TemporaryDirectory()
        let store = try HearthStore(directory: directory.url)
        defer { try? store.close() }
        try await store.ensureHousehold(name: "Home", timeZone: "Europe/Warsaw")
        let cache = ReadCache(hub: store.hub)
        let readings = Readings()
        let key = ReadCache.Key(actor: caregiver, uri: "/api/v1/medications")
        let now = Date()

        let first = try await cache.body(for: key, at: now) { readings.read(["n": "one"]) }
        let second = try await cache.body(for: key, at: now) { readings.read(["n": "two"]) }
        #expect(Self.text(first) == #"{"n":"one"}"#)
        #expect(Self.text(second) == #"{"n":"one"}"#, "nothing changed: the kept answer")
        expectEqual(readings.total, 1)

        _ = try await store.updateHousehold(name: "Kowalski home", timeZone: nil, as: .hubTerminal, by: "test")
        let third = try await cache.body(for: key, at: now) { readings.read(["n": "three"]) }
        #expect(Self.text(third) == #"{"n":"three"}"#, "a published change makes it read again")
        expectEqual(readings.total, 2)
    }

    @Test func anAnswerEndsAtItsOwnTimeAndBelongsToItsPerson() async throws {
        let directory = try TemporaryDirectory()
        let store = try HearthStore(directory: directory.url)
        defer { try? store.close() }
        let cache = ReadCache(hub: store.hub)
        let readings = Readings()
        let now = Date()
        let due = now.addingTimeInterval(60)
        let today = ReadCache.Key(actor: senior, uri: "/api/v1/today")

        _ = try await cache.body(for: today, at: now) { readings.read(["status": "upcoming"], validUntil: due) }
        let before = try await cache.body(for: today, at: due.addingTimeInterval(-0.001)) { readings.read(["status": "due"]) }
        let after = try await cache.body(for: today, at: due) { readings.read(["status": "due"]) }
        #expect(Self.text(before) == #"{"status":"upcoming"}"#)
        #expect(Self.text(after) == #"{"status":"due"}"#, "read again once the dose turns due")

        let theirs = try await cache.body(for: .init(actor: caregiver, uri: "/api/v1/today"), at: now) {
            readings.read(["whose": "caregiver"])
        }
        #expect(Self.text(theirs) == #"{"whose":"caregiver"}"#, "another person's answer is never shared")
        let linked = PermissionPolicy.Actor(personId: caregiver.personId, role: .caregiver, caresFor: [senior.personId])
        _ = try await cache.body(for: .init(actor: linked, uri: "/api/v1/today"), at: now) { readings.read(["whose": "linked"]) }
        expectEqual(readings.total, 4, "nor one read before the person's care links changed")
    }

    @Test func aFailedReadingIsNotKept() async throws {
        let directory = try TemporaryDirectory()
        let store = try HearthStore(directory: directory.url)
        defer { try? store.close() }
        let cache = ReadCache(hub: store.hub)
        let key = ReadCache.Key(actor: senior, uri: "/api/v1/medications?personId=x")
        await #expect(throws: HearthError.self) {
            _ = try await cache.body(for: key, at: Date()) { throw HearthError.notFound(what: "That person") }
        }
        let answer = try await cache.body(for: key, at: Date()) { Readings().read(.array([])) }
        expectEqual(Self.text(answer), "[]")
    }

    /// Through the routes: an edit shows at once in the list, a dose taken
    /// shows at once on Today, and each person keeps seeing only their own.
    @Test func theCareListsShowAnEditAtOnce() async throws {
        try await CareHousehold.with { home in
            let soon = CareHousehold.inAnHour()
            let id = try await home.addMedication(schedule: #"{"kind": "weekly", "times": ["\#(soon.time)"], "amount": 1}"#)
            for _ in 0..<2 {
                try await expectEqual(home.call(.get, "/api/v1/medications", as: home.caregiver).list.first?.field("name"), "Metformina")
            }
            let renamed = try await home.call(.patch, "/api/v1/medications/\(id)", as: home.caregiver, body: #"{"name": "Metformax"}"#)
            expectEqual(renamed.status, .ok)
            try await expectEqual(home.call(.get, "/api/v1/medications", as: home.caregiver).list.first?.field("name"), "Metformax")
            #expect(try await home.call(.get, "/api/v1/medications", as: home.stranger).list.isEmpty)

            func firstDose(as token: String) async throws -> JSONValue? {
                let today = try await home.call(.get, "/api/v1/today?date=\(soon.date)", as: token)
                guard case .array(let people)? = today["people"], case .array(let doses)? = people.first?.field("doses") else { return nil }
                return doses.first
            }
            let dose = try #require(try await firstDose(as: home.senior))
            expectEqual(dose.field("status"), "upcoming")
            let key = try #require(dose.field("key")?.text)
            let taken = try await home.call(.post, "/api/v1/doses", as: home.senior, body: #"{"key": "\#(key)", "status": "taken"}"#)
            expectEqual(taken.status, .created)
            try await expectEqual(firstDose(as: home.senior)?.field("status"), "taken")
            try await expectEqual(firstDose(as: home.caregiver)?.field("status"), "taken")
        }
    }
}
