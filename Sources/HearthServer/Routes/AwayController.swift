import Foundation
import HearthAlerts
import HearthCore
import HearthQR
import HearthStore
import Hummingbird

/// How people are told away from home: `/people/{id}/away` (her own choice
/// of texts and push; the person herself or an admin) and
/// `/household/emergency-contacts` (admins). Bodies are read strictly: a
/// field the hub does not know is a 422 naming it, so a typo never looks
/// like a choice that was kept.
struct AwayController: Sendable {
    let store: HearthStore
    /// What the hub can send (`sms.enabled`, `push.enabled`): the page
    /// offers "Text me when I'm away" and the push only then, and never
    /// promises what cannot go.
    let away: AwayStatus

    struct AwayBody: ResponseEncodable {
        var sms: Bool
        var push: Bool
        /// Her secret topic's full URL on the Internet push server, to
        /// subscribe to; null while the hub has no push server or she has
        /// no topic (she never chose push).
        var pushUrl: String?
        var textsPossible: Bool
        var pushPossible: Bool
        /// What the push server may read: `kind-only` or `full`; null when push is off.
        var pushContent: String?
        /// `pushUrl` as a QR code (SVGQR), for her phone's camera.
        var pushSvg: String?

        enum CodingKeys: String, CodingKey { case sms, push, pushUrl, textsPossible, pushPossible, pushContent, pushSvg }

        /// `pushUrl` is always there, null when there is none: a client tells
        /// "no push server" from a field it missed.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(sms, forKey: .sms)
            try container.encode(push, forKey: .push)
            if let pushUrl { try container.encode(pushUrl, forKey: .pushUrl) } else { try container.encodeNil(forKey: .pushUrl) }
            try container.encode(textsPossible, forKey: .textsPossible)
            try container.encode(pushPossible, forKey: .pushPossible)
            try container.encodeIfPresent(pushContent, forKey: .pushContent)
            try container.encodeIfPresent(pushSvg, forKey: .pushSvg)
        }
    }

    struct DelaysBody: ResponseEncodable {
        var missedDoseAwayAfterMinutes: Int
        var contactsAfterMinutes: Int

        init(_ settings: EscalationSettings) {
            missedDoseAwayAfterMinutes = settings.missedDoseAwayAfterMinutes
            contactsAfterMinutes = settings.contactsAfterMinutes
        }
    }

    struct ContactBody: ResponseEncodable, Decodable {
        var name: String
        var phone: String
    }

    func addRoutes(to api: RouterGroup<HearthRequestContext>) {
        let people = api.group(.people)
        people.get("{id}/away") { _, context -> AwayBody in
            let id = try PeopleController.person(in: context)
            return body(try await store.awayChoice(of: id, visibleTo: try context.requirePaired()))
        }
        people.put("{id}/away") { request, context -> AwayBody in
            let id = try PeopleController.person(in: context)
            let actor = try context.requirePaired()
            let fields = try Self.object(try await request.decode(as: JSONValue.self, context: context),
                                         allowing: ["sms", "push", "newPushTopic"])
            let choice = AwayChoice(sms: try Self.flag(fields, "sms"), push: try Self.flag(fields, "push"))
            // "Make a new link": the old topic stops at once (a phone lost, a link shared by mistake).
            let renew = fields["newPushTopic"] == nil ? false : try Self.flag(fields, "newPushTopic")
            return body(try await store.setAwayChoice(of: id, choice, newPushTopic: renew, as: actor, by: context.caller.origin))
        }
        let household = api.group(.household)
        // How long a missed dose and an unanswered SOS wait at home first: anyone paired reads, admins set.
        household.get("away-delays") { _, context -> DelaysBody in
            _ = try context.requirePaired()
            return DelaysBody(try await store.escalationSettings())
        }
        household.put("away-delays") { request, context -> DelaysBody in
            let actor = try context.requirePaired()
            let fields = try Self.object(try await request.decode(as: JSONValue.self, context: context),
                                         allowing: ["missedDoseAwayAfterMinutes", "contactsAfterMinutes"])
            let settings = EscalationSettings(missedDoseAwayAfterMinutes: try Self.minutes(fields, "missedDoseAwayAfterMinutes"),
                                              contactsAfterMinutes: try Self.minutes(fields, "contactsAfterMinutes"))
            return DelaysBody(try await store.setEscalationSettings(settings, as: actor, by: context.caller.origin))
        }
        household.get("emergency-contacts") { _, context -> [ContactBody] in
            try await store.emergencyContacts(as: try context.requirePaired()).map { ContactBody(name: $0.name, phone: $0.phone) }
        }
        household.put("emergency-contacts") { request, context -> [ContactBody] in
            let actor = try context.requirePaired()
            guard case .array(let items) = try await request.decode(as: JSONValue.self, context: context) else {
                throw HearthError.invalid(fields: ["emergencyContacts": "must be a list of {name, phone}"])
            }
            var entries: [(name: String, phone: String)] = []
            for (index, item) in items.enumerated() {
                guard case .object(let fields) = item else {
                    throw HearthError.invalid(fields: ["[\(index)]": "must be an object with name and phone"])
                }
                if let unknown = fields.keys.sorted().first(where: { !["name", "phone"].contains($0) }) {
                    throw HearthError.invalid(fields: ["[\(index)].\(unknown)": "is not a field of a contact"])
                }
                guard case .string(let name)? = fields["name"] else { throw HearthError.invalid(fields: ["[\(index)].name": "must be text"]) }
                guard case .string(let phone)? = fields["phone"] else { throw HearthError.invalid(fields: ["[\(index)].phone": "must be text"]) }
                entries.append((name, phone))
            }
            let contacts = try EmergencyContact.validatedList(entries)
            return try await store.setEmergencyContacts(contacts, as: actor, by: context.caller.origin)
                .map { ContactBody(name: $0.name, phone: $0.phone) }
        }
    }

    func body(_ record: AwayRecord) -> AwayBody {
        let push = away.push
        // Her topic's address only while she has push on: a link left on a
        // page after she turned it off would subscribe nobody to anything.
        let url = record.choice.push ? record.pushTopic.flatMap { topic in push.map { $0.topicURL(topic) } } : nil
        return AwayBody(sms: record.choice.sms, push: record.choice.push, pushUrl: url,
                        textsPossible: away.summary.smsEnabled, pushPossible: push != nil, pushContent: push?.content.rawValue,
                        pushSvg: url.flatMap { try? SVGQR.render(QRCode(encoding: $0), title: "Alerts away from home: \($0)") })
    }

    /// The body's fields, when it is an object of only `allowing`, each present.
    static func object(_ body: JSONValue, allowing allowed: [String]) throws(HearthError) -> [String: JSONValue] {
        guard case .object(let fields) = body else { throw .invalid(fields: ["body": "must be an object"]) }
        if let unknown = fields.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw .invalid(fields: [unknown: "is not a setting here"])
        }
        return fields
    }

    static func minutes(_ fields: [String: JSONValue], _ name: String) throws(HearthError) -> Int {
        guard case .number(let value)? = fields[name], value == value.rounded(), abs(value) < 1_000_000 else {
            throw .invalid(fields: [name: "must be a whole number of minutes"])
        }
        return Int(value)
    }

    static func flag(_ fields: [String: JSONValue], _ name: String) throws(HearthError) -> Bool {
        guard case .bool(let value)? = fields[name] else { throw .invalid(fields: [name: "must be true or false"]) }
        return value
    }
}
