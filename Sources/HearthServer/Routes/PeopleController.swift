import Foundation
import HearthCore
import HearthStore
import Hummingbird

/// `/api/v1/people`: who is in the household.
struct PeopleController {
    let store: HearthStore

    struct PersonBody: ResponseEncodable {
        var id: String
        var name: String
        var role: String
        var createdAt: Date
        /// The seniors this person looks after (that the caller may see), so
        /// the Household page can say who cares for whom.
        var caresFor: [String]
        /// A number to call them on; null when none was given.
        var phone: String?
        /// For an archived person (listed to admins with `?archived=1`).
        var archivedAt: Date?
        /// A senior who adds, changes and stops her own medications.
        var managesOwnMedications: Bool
        /// The caller's own name for this person, seen by no one else.
        var alias: String?

        init(_ person: Person, caresFor: [String], alias: String? = nil) {
            self.alias = alias
            id = person.id.text
            name = person.name
            role = person.role.rawValue
            createdAt = person.createdAt
            self.caresFor = caresFor
            phone = person.phone
            archivedAt = person.archivedAt
            managesOwnMedications = person.managesOwnMedications
        }

        // `phone` goes out as null when there is none, so a client tells
        // "no number" from "an older hub".
        enum CodingKeys: String, CodingKey { case id, name, role, createdAt, caresFor, phone, archivedAt, managesOwnMedications, alias }

        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(name, forKey: .name)
            try container.encode(role, forKey: .role)
            try container.encode(createdAt, forKey: .createdAt)
            try container.encode(caresFor, forKey: .caresFor)
            try container.encode(phone, forKey: .phone)
            try container.encodeIfPresent(archivedAt, forKey: .archivedAt)
            try container.encode(managesOwnMedications, forKey: .managesOwnMedications)
            try container.encodeIfPresent(alias, forKey: .alias)
        }
    }

    /// `PATCH /people/{id}`: absent fields stay; `"phone": null` removes the number.
    struct PersonPatch: Decodable {
        var change = PersonChange()

        enum CodingKeys: String, CodingKey { case name, phone, role, managesOwnMedications, alias }

        init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            change.name = try container.decodeIfPresent(String.self, forKey: .name)
            if container.contains(.phone) {
                change.phone = .some(try container.decodeNil(forKey: .phone) ? nil : try container.decode(String.self, forKey: .phone))
            }
            if let role = try container.decodeIfPresent(String.self, forKey: .role) {
                guard let known = Person.Role(rawValue: role) else {
                    throw HearthError.invalid(fields: ["role": "must be one of admin, caregiver, senior"])
                }
                change.role = known
            }
            change.managesOwnMedications = try container.decodeIfPresent(Bool.self, forKey: .managesOwnMedications)
            if container.contains(.alias) {
                change.alias = .some(try container.decodeNil(forKey: .alias) ? nil : try container.decode(String.self, forKey: .alias))
            }
        }
    }

    /// The senior and the caregiver a link's path names; 404 for an id that is no id.
    static func link(in context: HearthRequestContext) throws -> (senior: UUID, caregiver: UUID) {
        // `{id}` is the senior: the router needs one name for the segment `/people/{id}` uses.
        guard let senior = context.parameters.get("id").flatMap(UUID.init(text:)),
              let caregiver = context.parameters.get("caregiverId").flatMap(UUID.init(text:))
        else { throw HearthError.notFound(what: "That person") }
        return (senior, caregiver)
    }

    func addRoutes(to api: RouterGroup<HearthRequestContext>) {
        let people = api.group(.people)
        people.get { request, context -> [PersonBody] in
            let actor = try context.requirePaired()
            // Archived people are the admins' to see (and bring back).
            let archived = try CareQuery.flag("archived", in: request)
            if archived { try context.require(.edit, .household, what: "The household") }
            let visible = try await store.people(includingArchived: archived)
                .filter { PermissionPolicy.decide(actor, .view, .person($0.id)) == .allow }
            let visibleIds = Set(visible.map(\.id))
            let links = try await store.careLinks()
            let aliases = try await store.aliases(givenBy: actor.personId)
            return visible.map { person in
                PersonBody(person, caresFor: (links[person.id] ?? []).filter(visibleIds.contains).map(\.text).sorted(),
                           alias: aliases[person.id])
            }
        }
        // Renaming, a number, a role; archiving and bringing back: the store
        // decides who may, in its write.
        people.patch("{id}") { request, context -> PersonBody in
            let id = try Self.person(in: context)
            let patch = try await request.decode(as: PersonPatch.self, context: context)
            let actor = try context.requirePaired()
            let person = try await store.updatePerson(id: id, patch.change, as: actor, by: context.caller.origin)
            return try await body(of: person, alias: try await store.aliases(givenBy: actor.personId)[person.id])
        }
        people.post("{id}/archive") { _, context -> PersonBody in
            let person = try await store.archivePerson(id: try Self.person(in: context), as: try context.requirePaired(),
                                                       by: context.caller.origin)
            return try await body(of: person)
        }
        people.post("{id}/restore") { _, context -> PersonBody in
            let person = try await store.restorePerson(id: try Self.person(in: context), as: try context.requirePaired(),
                                                       by: context.caller.origin)
            return try await body(of: person)
        }
        // Who looks after whom: an admin links and unlinks (the store decides, in its write).
        people.put("{id}/caregivers/{caregiverId}") { _, context -> Response in
            let (senior, caregiver) = try Self.link(in: context)
            try await store.link(caregiver: caregiver, senior: senior, as: try context.requirePaired(), by: context.caller.origin)
            return Response(status: .noContent)
        }
        people.delete("{id}/caregivers/{caregiverId}") { _, context -> Response in
            let (senior, caregiver) = try Self.link(in: context)
            try await store.removeCareLink(caregiver: caregiver, senior: senior, as: try context.requirePaired(), by: context.caller.origin)
            return Response(status: .noContent)
        }
    }

    /// The person the path names; 404 for an id that is no id.
    static func person(in context: HearthRequestContext) throws -> UUID {
        guard let id = context.parameters.get("id").flatMap(UUID.init(text:)) else { throw HearthError.notFound(what: "That person") }
        return id
    }

    private func body(of person: Person, alias: String? = nil) async throws -> PersonBody {
        PersonBody(person, caresFor: (try await store.careLinks()[person.id] ?? []).map(\.text).sorted(), alias: alias)
    }
}
