import Foundation
import HearthCore
import HearthStore
import Hummingbird

/// `/api/v1/household`: the household's name and time zone.
struct HouseholdController {
    let store: HearthStore

    struct HouseholdBody: ResponseEncodable {
        var id: String
        var name: String
        var timeZone: String
        var createdAt: Date

        init(_ household: Household) {
            id = household.id.uuidString.lowercased()
            name = household.name
            timeZone = household.timeZone
            createdAt = household.createdAt
        }
    }

    /// Fields a client may change; absent fields stay as they are.
    struct HouseholdPatch: Decodable {
        var name: String?
        var timeZone: String?
    }

    func addRoutes(to router: Router<HearthRequestContext>) {
        router.get("/api/v1/household") { _, _ -> HouseholdBody in
            guard let household = try await store.household() else {
                throw HearthError.notFound(what: "The household")
            }
            return HouseholdBody(household)
        }
        router.patch("/api/v1/household") { request, context -> HouseholdBody in
            // Only admins manage the household's settings.
            try context.require(.edit, .household, what: "The household")
            let patch = try await request.decode(as: HouseholdPatch.self, context: context)
            let household = try await store.updateHousehold(
                name: patch.name, timeZone: patch.timeZone, by: context.caller.actorName)
            return HouseholdBody(household)
        }
    }
}
