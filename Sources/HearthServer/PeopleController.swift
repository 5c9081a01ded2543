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

        init(_ person: Person, caresFor: [String]) {
            id = person.id.text
            name = person.name
            role = person.role.rawValue
            createdAt = person.createdAt
            self.caresFor = caresFor
        }
    }

    /// The senior and the caregiver a link's path names; 404 for an id that is no id.
    static func link(in context: HearthRequestContext) throws -> (senior: UUID, caregiver: UUID) {
        guard let senior = context.parameters.get("seniorId").flatMap(UUID.init(text:)),
              let caregiver = context.parameters.get("caregiverId").flatMap(UUID.init(text:))
        else { throw HearthError.notFound(what: "That person") }
        return (senior, caregiver)
    }

    func addRoutes(to api: RouterGroup<HearthRequestContext>) {
        let people = api.group(.people)
        people.get { _, context -> [PersonBody] in
            let actor = try context.requirePaired()
            let visible = try await store.people().filter { PermissionPolicy.decide(actor, .view, .person($0.id)) == .allow }
            let visibleIds = Set(visible.map(\.id))
            let links = try await store.careLinks()
            return visible.map { person in
                PersonBody(person, caresFor: (links[person.id] ?? []).filter(visibleIds.contains).map(\.text).sorted())
            }
        }
        // Who looks after whom: an admin links and unlinks (the store decides, in its write).
        people.put("{seniorId}/caregivers/{caregiverId}") { _, context -> Response in
            let (senior, caregiver) = try Self.link(in: context)
            try await store.link(caregiver: caregiver, senior: senior, as: try context.requirePaired(), by: context.caller.actorName)
            return Response(status: .noContent)
        }
        people.delete("{seniorId}/caregivers/{caregiverId}") { _, context -> Response in
            let (senior, caregiver) = try Self.link(in: context)
            try await store.removeCareLink(caregiver: caregiver, senior: senior, as: try context.requirePaired(), by: context.caller.actorName)
            return Response(status: .noContent)
        }
    }
}
