import Foundation
import HearthCore
import HearthStore
import Hummingbird

/// `/api/v1/household`: the household's name and time zone, and
/// `/api/v1/household/reminders`: how persistent dose reminders are.
struct HouseholdController {
    let store: HearthStore

    struct HouseholdBody: ResponseEncodable {
        var id: String
        var name: String
        var timeZone: String
        /// What the hub's alerts on phones and its voice speak: en or pl.
        var language: String
        var createdAt: Date

        init(_ household: Household) {
            id = household.id.text
            name = household.name
            timeZone = household.timeZone
            language = household.language.rawValue
            createdAt = household.createdAt
        }
    }

    /// Fields a client may change; absent fields stay as they are.
    /// What a PATCH changes: a field left out stays; none may be null.
    struct HouseholdPatch: Decodable {
        var name: String?
        var timeZone: String?
        var language: String?

        enum CodingKeys: String, CodingKey { case name, timeZone, language }

        init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decodeIfGiven(String.self, forKey: .name)
            timeZone = try container.decodeIfGiven(String.self, forKey: .timeZone)
            language = try container.decodeIfGiven(String.self, forKey: .language)
        }
    }

    /// How long after a dose is due it counts as missed, and how often the
    /// senior is reminded meanwhile; both in minutes, both required.
    struct RemindersBody: ResponseCodable {
        var graceMinutes: Int
        var repeatMinutes: Int

        init(_ settings: ReminderSettings) {
            graceMinutes = settings.graceMinutes
            repeatMinutes = settings.repeatMinutes
        }
    }

    func addRoutes(to api: RouterGroup<HearthRequestContext>) {
        let household = api.group(.household)
        household.get("reminders") { _, _ -> RemindersBody in
            RemindersBody(try await store.reminderSettings())
        }
        household.put("reminders") { request, context -> RemindersBody in
            // Only admins manage the household's settings (asked first, so a caregiver's bad body is still 403).
            let editor = try context.require(.edit, .household, what: "The household")
            let body = try await request.decode(as: RemindersBody.self, context: context)
            return RemindersBody(try await store.updateReminderSettings(
                ReminderSettings(graceMinutes: body.graceMinutes, repeatMinutes: body.repeatMinutes), as: editor, by: context.caller.origin))
        }
        // The household's audit, for its admins.
        household.get("audit") { request, context -> [AuditEntryBody] in
            try context.require(.edit, .household, what: "The household")
            let limit = try CareQuery.number("limit", in: request, range: 1...500, default: 100)
            return try await store.householdAudit(limit: limit).map(AuditEntryBody.init)
        }
        household.get { _, _ -> HouseholdBody in
            guard let household = try await store.household() else {
                throw HearthError.notFound(what: "The household")
            }
            return HouseholdBody(household)
        }
        household.patch { request, context -> HouseholdBody in
            // Only admins manage the household's settings (asked first, so a caregiver's bad body is still 403).
            let editor = try context.require(.edit, .household, what: "The household")
            let patch = try await request.decode(as: HouseholdPatch.self, context: context)
            let household = try await store.updateHousehold(
                name: patch.name, timeZone: patch.timeZone, language: patch.language, as: editor, by: context.caller.origin)
            return HouseholdBody(household)
        }
    }
}
