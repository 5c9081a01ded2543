import Foundation
import HearthCore
@testable import HearthServer
import HearthStore
import HearthTestSupport
import Testing

/// A caregiver's note shared with a senior's circle, over the API: Babcia's
/// other caregiver reads it on every path, a caregiver of another senior is
/// told there is no such note, and a senior the owner does not look after
/// is refused by name.
extension NotePrivacyTests {
    /// Ela looks after Babcia too; Jan looks after Dziadek. Device tokens and ids.
    struct OtherCircles {
        let ela: String, jan: String
        let dziadekId: UUID
    }

    static func otherCircles(_ home: CareHousehold) async throws -> OtherCircles {
        let ela = try await NotesRouteTests.device(home.store, "Ela", .caregiver)
        let jan = try await NotesRouteTests.device(home.store, "Jan", .caregiver)
        _ = try await NotesRouteTests.device(home.store, "Dziadek", .senior)
        let ids = try await (home.store.person(named: "Ela"), home.store.person(named: "Jan"), home.store.person(named: "Dziadek"))
        let (elaId, janId, dziadekId) = (try #require(ids.0?.id), try #require(ids.1?.id), try #require(ids.2?.id))
        try await home.store.link(caregiver: elaId, senior: home.seniorId, as: .hubTerminal, by: "test")
        try await home.store.link(caregiver: janId, senior: dziadekId, as: .hubTerminal, by: "test")
        return OtherCircles(ela: ela, jan: jan, dziadekId: dziadekId)
    }

    @Test func aCaregiversNoteInTheSeniorsCircleIsReadByHerOtherCaregiversAndNoOneOutsideIt() async throws {
        try await CareHousehold.with { home in
            let others = try await Self.otherCircles(home)
            // Ania, who looks after Babcia alone, shares a note with Babcia's circle: Babcia's is chosen for her.
            let made = try await home.call(.post, "/api/v1/notes", as: home.caregiver,
                                           body: #"{"title": "Okulista", "text": "okulista w piątek", "visibility": "circle"}"#)
            expectEqual(made.status, .created)
            expectEqual(made["circleOf"]?.text, home.seniorId.text)
            let id = try #require(made["id"]?.text)
            // Ela, Babcia's other caregiver, and Babcia read it: one note, the list, search and sync.
            for reader in [others.ela, home.senior] {
                let one = try await home.call(.get, "/api/v1/notes/\(id)", as: reader)
                #expect(one.status == .ok && one["text"]?.text == "okulista w piątek")
                #expect(try await home.call(.get, "/api/v1/notes", as: reader).list.contains { $0.field("id")?.text == id })
                try await expectEqual(home.call(.get, "/api/v1/notes?q=okulista", as: reader).list.count, 1)
                let snapshot = try await home.call(.get, "/api/v1/sync/snapshot", as: reader)
                #expect(Self.json(snapshot.body).contains("okulista w piątek"))
            }
            // Jan, who looks after Dziadek, Obcy, who looks after no one, and the admin do not: 404, and no word of it.
            for outsider in [others.jan, home.stranger, nil] {
                try await expectEqual(home.call(.get, "/api/v1/notes/\(id)", as: outsider).status, .notFound)
                for uri in ["/api/v1/notes", "/api/v1/notes?q=okulista", "/api/v1/sync/snapshot"] {
                    #expect(!Self.json(try await home.call(.get, uri, as: outsider).body).contains("okulista"), "\(uri)")
                }
            }
        }
    }

    @Test func theChosenSeniorMustBeOneTheOwnerLooksAfterElse422NamingTheField() async throws {
        try await CareHousehold.with { home in
            let others = try await Self.otherCircles(home)
            let before = try await home.store.latestSeq()
            for circle in [others.dziadekId.text, UUID().uuidString, "Babcia"] {
                let refused = try await home.call(.post, "/api/v1/notes", as: home.caregiver, body: """
                    {"title": "Okulista", "visibility": "circle", "circleOf": "\(circle)"}
                    """)
                expectEqual(refused.status, .unprocessableContent, "\(circle)")
                expectEqual(refused.invalidFields, ["circleOf"], "\(String(describing: refused.body))")
            }
            try await expectEqual(home.store.latestSeq(), before, "nothing was made")
            let made = try await home.call(.post, "/api/v1/notes", as: home.caregiver, body: """
                {"title": "Okulista", "visibility": "circle", "circleOf": "\(home.seniorId.text)"}
                """)
            let id = try #require(made["id"]?.text)
            let moved = try await home.call(.patch, "/api/v1/notes/\(id)", as: home.caregiver, body: """
                {"title": "Zmienione", "circleOf": "\(others.dziadekId.text)"}
                """)
            #expect(moved.status == .unprocessableContent && moved.invalidFields == ["circleOf"])
            let stored = try await home.call(.get, "/api/v1/notes/\(id)", as: home.caregiver)
            #expect(stored["title"]?.text == "Okulista" && stored["circleOf"]?.text == home.seniorId.text, "nothing changed")
            try await expectEqual(home.call(.get, "/api/v1/notes/\(id)", as: others.jan).status, .notFound)
        }
    }

    @Test func aDeviceSharingThroughSyncFollowsTheSameRule() async throws {
        try await CareHousehold.with { home in
            let others = try await Self.otherCircles(home)
            let phone = try await SyncRouteTests.SyncingDevice(token: home.caregiver, store: home.store)
            let wrong = phone.change("note", UUID().uuidString.lowercased(), """
                {"title": "Okulista", "visibility": "circle", "circleOf": "\(others.dziadekId.text)"}
                """)
            let refused = try await phone.sync(home, [wrong])
            expectEqual(SyncRouteTests.results(refused).first?.field("reason"), "invalid-circle")
            let id = UUID().uuidString.lowercased()
            let right = phone.change("note", id, #"{"title": "Okulista", "visibility": "circle"}"#)
            let applied = try await phone.sync(home, [right])
            expectEqual(SyncRouteTests.results(applied).first?.field("status"), "applied")
            try await expectEqual(home.call(.get, "/api/v1/notes/\(id)", as: others.ela).status, .ok)
            try await expectEqual(home.call(.get, "/api/v1/notes/\(id)", as: others.jan).status, .notFound)
        }
    }
}
