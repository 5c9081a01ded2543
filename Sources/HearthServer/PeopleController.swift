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

        init(_ person: Person) {
            id = person.id.text
            name = person.name
            role = person.role.rawValue
            createdAt = person.createdAt
        }
    }

    func addRoutes(to router: Router<HearthRequestContext>) {
        router.get("/api/v1/people") { _, context -> [PersonBody] in
            let actor = try context.requirePaired()
            return try await store.people()
                .filter { PermissionPolicy.decide(actor, .view, .person($0.id)) == .allow }
                .map(PersonBody.init)
        }
    }
}
