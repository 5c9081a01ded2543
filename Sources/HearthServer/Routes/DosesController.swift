import Foundation
import HearthCore
import HearthStore
import Hummingbird

/// `/api/v1/doses`: answering a dose ("Taken", "Skip", "Remind me later"),
/// taking an as-needed one, the history of what was taken, and correcting it.
struct DosesController {
    let store: HearthStore
    /// The hub's time, corrected when someone said its clock was wrong;
    /// given by the router, never the system clock directly.
    let now: @Sendable () -> Date

    var circle: CareCircle { CareCircle(store: store) }

    /// How far back the history goes when the client does not say.
    static let defaultHistoryDays = 31
    /// The longest stretch one history request may cover.
    static let longestHistoryDays = 400

    /// A planned dose answered (`key`), or an as-needed dose taken (`medicationId`).
    struct Answer: Decodable {
        var key: String?
        var medicationId: UUID?
        /// taken, skipped or snoozed for a planned dose; taken for an as-needed one.
        var status: String?
        var takenAt: Date?
        var reason: String?
        var snoozeMinutes: Int?
        /// A caregiver's decision to give an as-needed dose past its limits.
        var override: Bool?
    }

    struct Correction: Decodable {
        var takenAt: Date?
        var status: Dose.Status?
        var reason: String?
        /// Takes the answer back: the dose waits again (nothing else may be sent with it).
        var withdraw: Bool?
    }

    func addRoutes(to api: RouterGroup<HearthRequestContext>) {
        let doses = api.group(.doses)
        doses.post { request, context -> EditedResponse<JSONValue> in
            _ = try context.requirePaired()
            let answer = try await request.decode(as: Answer.self, context: context)
            switch (answer.key, answer.medicationId) {
            case (let key?, nil):
                return try await answerPlanned(key: key, answer, context)
            case (nil, let medicationId?):
                return try await takeAsNeeded(medicationId: medicationId, answer, context)
            default:
                throw HearthError.invalid(fields: ["key": "or medicationId must be given, not both"])
            }
        }
        doses.get { request, context -> [JSONValue] in
            let actor = try context.requirePaired()
            let zone = try await circle.timeZone()
            // By default the last 31 days up to the end of today, so a dose
            // answered ahead this morning is listed too.
            let endOfToday = WallClock.instant(LocalDate(now(), in: zone).adding(days: 1), CareQuery.midnight, in: zone)
            let to = try CareQuery.instant("to", in: request, zone: zone, endOfDay: true) ?? endOfToday
            let from = try CareQuery.instant("from", in: request, zone: zone)
                ?? to.addingTimeInterval(-Double(Self.defaultHistoryDays) * 86_400)
            guard from <= to else { throw HearthError.invalid(fields: ["from": "must not be after to"]) }
            guard to.timeIntervalSince(from) <= Double(Self.longestHistoryDays) * 86_400 else {
                throw HearthError.invalid(fields: ["from": "must be at most \(Self.longestHistoryDays) days before to"])
            }
            let seniors = try await circle.seniors(
                named: request.uri.queryParameters.get("personId"), visibleTo: actor) { .care(of: $0) }
            // Each says whether it was taken late, by the household's grace as it is now.
            let settings = try await store.reminderSettings()
            return try await store.doses(of: Set(seniors.map(\.id)), from: from, to: to).map { $0.json(judgedBy: settings) }
        }
        doses.get("{id}") { _, context -> JSONValue in
            try await visibleDose(context, for: .view).json(judgedBy: try await store.reminderSettings())
        }
        doses.patch("{id}") { request, context -> JSONValue in
            let actor = try context.requirePaired()
            let id = try CareQuery.id(in: context, what: "That dose")
            let correction = try await request.decode(as: Correction.self, context: context)
            // Who may put it right is decided by the store, on the dose its write reads.
            if correction.withdraw == true {
                guard correction.takenAt == nil, correction.status == nil, correction.reason == nil else {
                    throw HearthError.invalid(fields: ["withdraw": "is sent alone"])
                }
                let (waiting, key) = try await store.withdrawDoseAnswer(id: id, as: actor, by: context.caller.origin)
                // Still ahead: no record is left, as if never answered.
                return waiting?.json(judgedBy: try await store.reminderSettings())
                    ?? ["id": .of(id), "key": .string(key), "status": "withdrawn"]
            }
            return try await store.correctDose(
                id: id, takenAt: correction.takenAt, status: correction.status, reason: correction.reason,
                as: actor, by: context.caller.origin).json(judgedBy: try await store.reminderSettings())
        }
    }

    /// "Taken", "Skip" or "Remind me later" on a planned dose. The first
    /// answer is recorded (201); a second tap on a dose already taken or
    /// skipped changes nothing and gets the dose as it stands (200).
    func answerPlanned(key: String, _ body: Answer, _ context: HearthRequestContext) async throws -> EditedResponse<JSONValue> {
        let answer = try DoseAnswer(status: body.status, takenAt: body.takenAt, reason: body.reason, snoozeMinutes: body.snoozeMinutes)
        let (dose, recorded) = try await store.answerDose(key: key, answer, as: try context.requirePaired(), by: context.caller.origin)
        return EditedResponse(status: recorded ? .created : .ok, headers: [.location: APIPath.link(.doses, dose.id)],
                              response: dose.json(judgedBy: try await store.reminderSettings()))
    }

    /// An as-needed dose. Past its minimum interval or daily maximum it is
    /// refused (409 limit-reached) unless a caregiver overrides, which is
    /// kept on record; a senior may not override their own limit.
    func takeAsNeeded(medicationId: UUID, _ body: Answer, _ context: HearthRequestContext) async throws -> EditedResponse<JSONValue> {
        guard (body.status ?? Dose.Status.taken.rawValue) == Dose.Status.taken.rawValue else {
            throw HearthError.invalid(fields: ["status": "must be taken for an as-needed dose"])
        }
        let dose = try await store.takeAsNeeded(medicationId: medicationId, takenAt: body.takenAt, override: body.override ?? false,
                                                reason: body.reason, as: try context.requirePaired(), by: context.caller.origin)
        return EditedResponse(status: .created, headers: [.location: APIPath.link(.doses, dose.id)], response: dose.json)
    }

    /// The dose in the path, if the caller may see it (else 404) and do `action` to it (else 403).
    func visibleDose(_ context: HearthRequestContext, for action: PermissionPolicy.Action) async throws -> Dose {
        _ = try context.requirePaired()
        let id = try CareQuery.id(in: context, what: "That dose")
        guard let dose = try await store.dose(id: id) else { throw HearthError.notFound(what: "That dose") }
        try context.require(action, .care(of: dose.personId), what: "That dose")
        return dose
    }
}
