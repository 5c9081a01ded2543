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

    /// `{deliveries: [{channel, recipient, at, state}], acknowledgedFrom, respondedFrom}`,
    /// each recipient named as the household knows it.
    func deliveries(of alert: CareAlert) async throws -> JSONValue {
        func from(_ field: String) async throws -> JSONValue {
            guard case .string(let actor)? = alert.details.field(field) else { return .null }
            return .string(try await store.recipientName(actor) ?? (actor == "cli" ? "the hub's console" : actor))
        }
        // What reached a screen, a phone's app or the speaker arrived there.
        let atHome = try await store.deliveries(ofAlert: alert.id).map { delivery -> (Date, JSONValue) in
            (delivery.at, ["channel": .string(delivery.channel), "recipient": .string(delivery.recipient), "at": .of(delivery.at),
                           "state": "delivered"])
        }
        // Texts and pushes away from home, as far as they got.
        let away = try await store.awayMessages(ofAlert: alert.id).map { message -> (Date, JSONValue) in
            let at = message.sentAt ?? message.queuedAt
            var entry: JSONValue = ["channel": .string(message.channel.rawValue), "recipient": .string(message.recipientName),
                                    "at": .of(at), "state": .string(message.state.rawValue)]
            if let answeredAt = message.answeredAt { entry = entry.setting("answeredAt", .of(answeredAt)) }
            if let problem = message.problem { entry = entry.setting("problem", .string(problem)) }
            return (at, entry)
        }
        let list = (atHome + away).enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }.map(\.element.1)
        return ["deliveries": .array(list), "acknowledgedFrom": try await from("acknowledgedFrom"),
                "respondedFrom": try await from("respondedFrom")]
    }

    func addRoutes(to api: RouterGroup<HearthRequestContext>) {
        let alerts = api.group(.alerts)
        alerts.get { request, context -> [JSONValue] in
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
                openOnly: try CareQuery.flag("open", in: request), kind: kind, before: before, limit: limit
            ).map(\.json)
        }
        alerts.get("{id}") { _, context -> JSONValue in
            let actor = try context.requirePaired()
            return try await store.alert(id: try CareQuery.id(in: context, what: "That alert"), visibleTo: actor).json
        }
        // Where it went and from where it was answered, for whoever sees the alert.
        alerts.get("{id}/deliveries") { _, context -> JSONValue in
            let actor = try context.requirePaired()
            let alert = try await store.alert(id: try CareQuery.id(in: context, what: "That alert"), visibleTo: actor)
            return try await deliveries(of: alert)
        }
        // Who may answer is decided by the store, on the alert as its write reads it.
        alerts.post("{id}/ack") { _, context -> JSONValue in
            let actor = try context.requirePaired()
            let id = try CareQuery.id(in: context, what: "That alert")
            return try await store.acknowledgeAlert(id: id, as: actor, by: context.caller.origin).json
        }
        alerts.post("{id}/respond") { _, context -> JSONValue in
            let actor = try context.requirePaired()
            let id = try CareQuery.id(in: context, what: "That alert")
            return try await store.respondToAlert(id: id, as: actor, by: context.caller.origin).json
        }
        api.post(RouterPath(APIPath.Resource.sos.rawValue)) { request, context -> EditedResponse<JSONValue> in
            let actor = try context.requirePaired()
            let body = try await request.decodeIfSent(as: SOS.self, context: context)
            guard let personId = body?.personId ?? (actor.role == .senior ? actor.personId : nil) else {
                throw HearthError.invalid(fields: ["personId": "is required: name the senior who needs help"])
            }
            let alert = try await store.raiseSOS(for: personId, as: actor, by: context.caller.origin)
            return EditedResponse(status: .created, headers: [.location: APIPath.link(.alerts, alert.id)], response: alert.json)
        }
    }
}
