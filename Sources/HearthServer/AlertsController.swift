import Foundation
import HearthCore
import HearthStore
import Hummingbird

/// `/api/v1/alerts` and `/api/v1/sos`: what someone must notice — an SOS, a
/// dose due or missed, stock running low, the hub's clock. Acknowledging an
/// alert on one device clears it on all; a caregiver answers an SOS with
/// "I'm on my way", which the senior's screen shows.
struct AlertsController {
    let store: HearthStore

    var circle: CareCircle { CareCircle(store: store) }

    struct SOS: Decodable {
        /// The senior in need; the caller when they are a senior.
        var personId: UUID?
    }

    func addRoutes(to router: Router<HearthRequestContext>) {
        router.get("/api/v1/alerts") { request, context -> [JSONValue] in
            let actor = try context.requirePaired()
            let kind = try request.uri.queryParameters.get("kind").map { text in
                guard let kind = CareAlert.Kind(rawValue: text) else {
                    throw HearthError.invalid(fields: ["kind": "must be one of " + CareAlert.Kind.allCases.map(\.rawValue).joined(separator: ", ")])
                }
                return kind
            }
            let before = try CareQuery.instant("before", in: request, zone: try await circle.timeZone())
            let limit = try CareQuery.number("limit", in: request, range: 1...500, default: 100)
            let seniors = try await circle.seniors(
                named: request.uri.queryParameters.get("personId"), visibleTo: actor) { .care(of: $0) }
            return try await store.alerts(
                about: Set(seniors.map(\.id)), includeHubAlerts: PermissionPolicy.seesHubAlerts(actor),
                openOnly: CareQuery.flag("open", in: request), kind: kind, before: before, limit: limit
            ).map(\.json)
        }
        router.get("/api/v1/alerts/{id}") { _, context -> JSONValue in
            try await visibleAlert(context, for: .view).json
        }
        router.post("/api/v1/alerts/{id}/ack") { _, context -> JSONValue in
            let alert = try await visibleAlert(context, for: .edit)
            let actor = try context.requirePaired()
            return try await store.acknowledgeAlert(id: alert.id, by: actor.personId, actor: context.caller.actorName).json
        }
        router.post("/api/v1/alerts/{id}/respond") { _, context -> JSONValue in
            let alert = try await visibleAlert(context, for: .edit)
            let actor = try context.requirePaired()
            // "I'm on my way" is a caregiver's answer to the senior.
            guard actor.role != .senior else {
                throw HearthError.forbidden("Only a caregiver answers an alert with \"I'm on my way\"")
            }
            return try await store.respondToAlert(id: alert.id, by: actor.personId, actor: context.caller.actorName).json
        }
        router.post("/api/v1/sos") { request, context -> EditedResponse<JSONValue> in
            let actor = try context.requirePaired()
            let body = try await request.decodeIfSent(as: SOS.self, context: context)
            guard let personId = body?.personId ?? (actor.role == .senior ? actor.personId : nil) else {
                throw HearthError.invalid(fields: ["personId": "is required: name the senior who needs help"])
            }
            try context.require(.create, .care(of: personId), what: "That person")
            let alert = try await store.raiseSOS(for: personId, raisedBy: actor.personId, by: context.caller.actorName)
            return EditedResponse(status: .created, headers: [.location: "/api/v1/alerts/\(alert.id.text)"], response: alert.json)
        }
    }


    /// The alert in the path, if the caller may see it (else 404) and do `action` to it (else 403).
    func visibleAlert(_ context: HearthRequestContext, for action: PermissionPolicy.Action) async throws -> CareAlert {
        let actor = try context.requirePaired()
        let id = try CareQuery.id(in: context, what: "That alert")
        guard let alert = try await store.alert(id: id) else { throw HearthError.notFound(what: "That alert") }
        if let personId = alert.personId {
            try context.require(action, .care(of: personId), what: "That alert")
        } else if !PermissionPolicy.seesHubAlerts(actor) {
            throw HearthError.notFound(what: "That alert")
        }
        return alert
    }
}
