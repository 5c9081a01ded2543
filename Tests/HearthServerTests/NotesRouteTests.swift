import Foundation
import HearthCore
@testable import HearthServer
import HearthStore
import HTTPTypes
import Hummingbird
import HearthHubTestSupport
import HearthTestSupport
import Testing

/// `/api/v1/notes` through the in-process router, as the admin, a senior
/// and a caregiver would use it.
@Suite struct NotesRouteTests {
    static let json: HTTPFields = [.contentType: "application/json"]

    /// A device token for someone new with `role`.
    static func device(_ store: HearthStore, _ name: String, _ role: Person.Role) async throws -> String {
        let invitation = try await store.createPairing(for: .newPerson(name: name, role: role), deviceName: nil, by: "test", maker: .hubTerminal)
        return try await store.redeemPairing(.secret(invitation.code.secret), deviceName: "\(name)'s phone", userAgent: nil).1
    }

    static func call(
        _ client: PairedClient, _ method: HTTPRequest.Method, _ uri: String, token: String? = nil, body: String? = nil
    ) async throws -> (HTTPResponse.Status, JSONValue?) {
        var headers: HTTPFields = body == nil ? [:] : json
        if let token { headers[.authorization] = "Bearer \(token)" }
        return try await client.execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) }) { response in
            (response.status, try? JSONDecoder().decode(JSONValue.self, from: Data(buffer: response.body)))
        }
    }

    @Test func aNewNoteIsPrivateUntilItsOwnerSharesIt() async throws {
        try await RouteTests.withRouter { admin, store in
            let senior = try await Self.device(store, "Babcia", .senior)
            let (status, created) = try await Self.call(admin, .post, "/api/v1/notes", body: #"{"text": "Lista zakupów\nmleko"}"#)
            expectEqual(status, .created)
            let id = try #require(created?.field("id").flatMap { if case .string(let id) = $0 { id } else { nil } })
            expectEqual(created?.field("visibility"), "private")
            expectEqual(created?.field("displayTitle"), "Lista zakupów")

            // Not even its existence shows to others while it is private.
            try await expectEqual(Self.call(admin, .get, "/api/v1/notes/\(id)", token: senior).0, .notFound)
            try await expectEqual(Self.call(admin, .get, "/api/v1/notes", token: senior).1, .array([]))

            #expect(try await Self.call(admin, .patch, "/api/v1/notes/\(id)", body: #"{"visibility": "shared"}"#).0 == .ok)
            let (seen, note) = try await Self.call(admin, .get, "/api/v1/notes/\(id)", token: senior)
            expectEqual(seen, .ok)
            expectEqual(note?.field("text"), "Lista zakupów\nmleko")
        }
    }

    @Test func othersMayEditASharedNoteButOnlyItsOwnerDecidesWhoSeesIt() async throws {
        try await RouteTests.withRouter { admin, store in
            let senior = try await Self.device(store, "Babcia", .senior)
            let caregiver = try await Self.device(store, "Ania", .caregiver)
            let (_, created) = try await Self.call(admin, .post, "/api/v1/notes", token: senior,
                                                   body: #"{"title": "Leki", "visibility": "shared"}"#)
            guard case .string(let id)? = created?.field("id") else { Issue.record("no id"); return }

            #expect(try await Self.call(admin, .patch, "/api/v1/notes/\(id)", token: caregiver, body: #"{"pinned": true}"#).0 == .ok)
            let (refused, problem) = try await Self.call(admin, .patch, "/api/v1/notes/\(id)", token: caregiver,
                                                         body: #"{"visibility": "private"}"#)
            expectEqual(refused, .forbidden)
            expectEqual(problem?.field("detail"), "Only the note's owner can change who sees it")
            // A caregiver not linked to this senior may not throw the senior's note away.
            try await expectEqual(Self.call(admin, .delete, "/api/v1/notes/\(id)", token: caregiver).0, .forbidden)
            try await expectEqual(Self.call(admin, .get, "/api/v1/notes/\(id)", token: senior).1?.field("pinned"), .bool(true))
        }
    }

    @Test func aNoteForTheCareCircleReadOnlyIsReadByHerCaregiverAloneAndChangedByHerAlone() async throws {
        try await RouteTests.withRouter { admin, store in
            let senior = try await Self.device(store, "Babcia", .senior)
            let caregiver = try await Self.device(store, "Ania", .caregiver)
            let people = try await store.people()
            let (zosia, ania) = (try #require(people.first { $0.name == "Babcia" }), try #require(people.first { $0.name == "Ania" }))
            try await store.link(caregiver: ania.id, senior: zosia.id, as: .hubTerminal, by: "test")
            let (status, created) = try await Self.call(admin, .post, "/api/v1/notes", token: senior,
                                                        body: #"{"title": "Leki", "visibility": "circle", "readOnly": true}"#)
            expectEqual(status, .created)
            #expect(created?.field("readOnly") == .bool(true) && created?.field("canEdit") == .bool(true))
            guard case .string(let id)? = created?.field("id") else { Issue.record("no id"); return }

            let (seen, note) = try await Self.call(admin, .get, "/api/v1/notes/\(id)", token: caregiver)
            #expect(seen == .ok && note?.field("visibility") == "circle" && note?.field("canEdit") == .bool(false))
            let (refused, problem) = try await Self.call(admin, .patch, "/api/v1/notes/\(id)", token: caregiver, body: #"{"pinned": true}"#)
            expectEqual(refused, .forbidden)
            expectEqual(problem?.field("detail"), "This note is shared for reading: only its owner changes it")
            #expect(try await Self.call(admin, .patch, "/api/v1/notes/\(id)", token: caregiver, body: #"{"readOnly": false}"#).0 == .forbidden)
            // The admin does not look after her: the note does not exist for him.
            try await expectEqual(Self.call(admin, .get, "/api/v1/notes/\(id)").0, .notFound)
            try await expectEqual(Self.call(admin, .get, "/api/v1/notes").1, .array([]))
            // A visibility that is not one: 422, and nothing changes.
            let (invalid, _) = try await Self.call(admin, .patch, "/api/v1/notes/\(id)", token: senior, body: #"{"visibility": "friends"}"#)
            #expect(invalid == .unprocessableContent || invalid == .badRequest)
            try await expectEqual(Self.call(admin, .get, "/api/v1/notes/\(id)", token: senior).1?.field("visibility"), "circle")
        }
    }

    @Test func searchTrashAndRestore() async throws {
        try await RouteTests.withRouter { admin, _ in
            let (_, created) = try await Self.call(admin, .post, "/api/v1/notes",
                                                   body: #"{"title": "Lekarz", "text": "Wizyta u kardiologa we wtorek"}"#)
            guard case .string(let id)? = created?.field("id") else { Issue.record("no id"); return }
            let (_, found) = try await Self.call(admin, .get, "/api/v1/notes?q=kardio")
            guard case .array(let hits)? = found, let hit = hits.first else { Issue.record("nothing found"); return }
            expectEqual(hits.count, 1)
            #expect(hit.field("snippet") == .array([
                .object(["text": "Wizyta u ", "matched": .bool(false)]),
                .object(["text": "kardiologa", "matched": .bool(true)]),
                .object(["text": " we wtorek", "matched": .bool(false)]),
            ]))

            let (deleted, trashed) = try await Self.call(admin, .delete, "/api/v1/notes/\(id)")
            expectEqual(deleted, .ok)
            #expect(trashed?.field("purgeAt") != .null && trashed?.field("purgeAt") != nil)
            try await expectEqual(Self.call(admin, .get, "/api/v1/notes").1, .array([]))
            guard case .array(let inTrash)? = try await Self.call(admin, .get, "/api/v1/notes?trash=1").1 else { return }
            expectEqual(inTrash.count, 1)
            #expect(try await Self.call(admin, .patch, "/api/v1/notes/\(id)", body: #"{"pinned": true}"#).0 == .notFound,
                    "a note in Trash is restored before it is changed")
            try await expectEqual(Self.call(admin, .post, "/api/v1/notes/\(id)/restore").0, .ok)
            try await expectEqual(Self.call(admin, .post, "/api/v1/notes/\(id)/restore").0, .notFound)
        }
    }

    @Test(arguments: [
        (HTTPRequest.Method.post, "/api/v1/notes", #"{"visibility": "public"}"#, HTTPResponse.Status.unprocessableContent),
        (.post, "/api/v1/notes", #"{"title": 5}"#, .unprocessableContent),
        (.post, "/api/v1/notes", #"{"title": "\#(String(repeating: "x", count: 201))"}"#, .unprocessableContent),
        (.post, "/api/v1/notes", "not json", .badRequest),
        (.get, "/api/v1/notes/not-an-id", nil, .notFound),
        (.get, "/api/v1/notes/\(UUID().uuidString)", nil, .notFound),
        (.get, "/api/v1/notes?q=\(String(repeating: "a", count: 201))", nil, .unprocessableContent),
    ] as [(HTTPRequest.Method, String, String?, HTTPResponse.Status)])
    func badRequestsAreExplainedAndStoreNothing(method: HTTPRequest.Method, uri: String, body: String?, status: HTTPResponse.Status) async throws {
        try await RouteTests.withRouter { admin, store in
            try await expectEqual(Self.call(admin, method, uri, body: body).0, status)
            let admins = try await store.people().filter { $0.role == .admin }
            let actor = PermissionPolicy.Actor(personId: admins[0].id, role: .admin)
            #expect(try await store.notes(visibleTo: actor).isEmpty)
        }
    }

    @Test func onlyAnAdminRenamesTheHousehold() async throws {
        try await RouteTests.withRouter { admin, store in
            let caregiver = try await Self.device(store, "Ania", .caregiver)
            #expect(try await Self.call(admin, .patch, "/api/v1/household", token: caregiver, body: #"{"name": "Mine now"}"#).0 == .forbidden)
            try await expectEqual(store.household()?.name, "Kowalski family")
        }
    }
}

extension JSONValue {
    func field(_ name: String) -> JSONValue? {
        if case .object(let object) = self { return object[name] }
        return nil
    }
}

@Suite struct NoteLiveVisibilityTests {
    static let owner = UUID(), other = UUID()

    static func change(visibility: String, wasShared: Bool = false, was: String? = nil) -> Change {
        var payload: [String: JSONValue] = ["ownerId": .string(owner.uuidString.lowercased()), "visibility": .string(visibility)]
        if wasShared { payload["wasShared"] = .bool(true) }
        if let was { payload["wasVisibility"] = .string(was) }
        return Change(seq: 1, entity: .note, entityId: UUID().uuidString, op: .update, payload: .object(payload), origin: "t", time: Date())
    }

    static func caller(_ person: UUID, _ role: Person.Role) -> Caller {
        .device(id: UUID(), as: PermissionPolicy.Actor(personId: person, role: role, caresFor: [owner]))
    }

    @Test func privateNotesReachOnlyTheirOwnersListeners() {
        #expect(LiveVisibility.isVisible(Self.change(visibility: "private"), to: Self.caller(Self.owner, .senior)))
        #expect(!LiveVisibility.isVisible(Self.change(visibility: "private"), to: Self.caller(Self.other, .admin)))
        #expect(LiveVisibility.isVisible(Self.change(visibility: "shared"), to: Self.caller(Self.other, .caregiver)))
        #expect(!LiveVisibility.isVisible(Self.change(visibility: "shared"), to: .unpaired))
    }

    @Test func aCircleNoteReachesTheOwnersCircleAndThoseWhoSawItBeforeHearItWent() {
        let outsider: Caller = .device(id: UUID(), as: PermissionPolicy.Actor(personId: Self.other, role: .admin))
        #expect(LiveVisibility.isVisible(Self.change(visibility: "circle"), to: Self.caller(Self.other, .caregiver)))
        #expect(!LiveVisibility.isVisible(Self.change(visibility: "circle"), to: outsider))
        #expect(LiveVisibility.isVisible(Self.change(visibility: "circle", was: "shared"), to: outsider))
    }

    @Test func thoseWhoSawASharedNoteHearThatItWentPrivate() {
        #expect(LiveVisibility.isVisible(Self.change(visibility: "private", wasShared: true), to: Self.caller(Self.other, .caregiver)))
    }
}
