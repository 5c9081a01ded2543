import Foundation
import HearthCore
import HearthStore
import Hummingbird

/// `/api/v1/medications`: a senior's medicines and when they are taken.
/// Seniors read their own list; their linked caregivers change it. Stopping a
/// medication (DELETE) keeps it and every dose ever recorded, and each edit
/// keeps the revision before it (`/history`).
struct MedicationsController {
    let store: HearthStore
    /// The hub's time, corrected when someone said its clock was wrong;
    /// given by the router, never the system clock directly.
    let now: @Sendable () -> Date
    /// The list as last written out, until the next change.
    let cache: ReadCache

    var circle: CareCircle { CareCircle(store: store) }

    func addRoutes(to api: RouterGroup<HearthRequestContext>) {
        let medications = api.group(.medications)
        medications.get { request, context -> Response in
            let actor = try context.requirePaired()
            // Nothing in the list depends on the time, only on what is stored.
            return try await cache.response(for: .init(actor: actor, uri: request.uri.description), at: now()) {
                let seniors = try await circle.seniors(
                    named: request.uri.queryParameters.get("personId"), visibleTo: actor) { .medications(of: $0) }
                let medications = try await store.medications(
                    of: Set(seniors.map(\.id)), includingInactive: try CareQuery.flag("inactive", in: request))
                let schedules = try await store.schedules(medicationIds: medications.map(\.id))
                return (.array(medications.map { Self.json($0, schedules: schedules[$0.id] ?? []) }), .distantFuture)
            }
        }
        medications.post { request, context -> EditedResponse<JSONValue> in
            let actor = try context.requirePaired()
            let new = try await request.decode(as: NewMedication.self, context: context)
            try context.require(.create, .medications(of: new.personId), what: "That person")
            // Everything is checked before anything is written, and every
            // wrong field — of the medication and of each schedule — is named at once.
            let today = LocalDate(now(), in: try await circle.timeZone())
            var problems: [String: String] = [:]
            do {
                _ = try new.draft(at: now()).validated()
            } catch HearthError.invalid(let fields) {
                problems.merge(fields) { own, _ in own }
            }
            // The medication's ID is given by the store; each schedule gets it once the medication is added.
            var schedules: [DoseSchedule] = []
            for (index, body) in (new.schedules ?? []).enumerated() {
                do {
                    schedules.append(try body.schedule(medicationId: UUID.random(), today: today, prefix: "schedules.\(index)."))
                } catch HearthError.invalid(let fields) {
                    problems.merge(fields) { own, _ in own }
                }
            }
            guard problems.isEmpty else { throw HearthError.invalid(fields: problems) }

            let medication = try await store.addMedication(new.draft(at: now()), schedules: schedules, as: actor, by: context.caller.origin)
            return EditedResponse(status: .created, headers: [.location: APIPath.link(.medications, medication.id)],
                                  response: try await medicationJSON(medication))
        }
        medications.get("{id}") { _, context -> JSONValue in
            try await medicationJSON(try await visibleMedication(context))
        }
        // Who may change a medication is decided by the store, on the
        // medication as its write reads it (HearthStore+Medications).
        medications.patch("{id}") { request, context -> JSONValue in
            let (id, actor) = try Self.named(context)
            let patch = try await request.decode(as: MedicationPatch.self, context: context)
            let changed = try await store.updateMedication(id: id, as: actor, .edit, by: context.caller.origin) { patch.apply(to: &$0) }
            return try await medicationJSON(changed)
        }
        medications.delete("{id}") { _, context -> JSONValue in
            // Stopped, not erased: the doses taken stay on record.
            let (id, actor) = try Self.named(context)
            let stopped = try await store.updateMedication(id: id, as: actor, .delete, by: context.caller.origin) { $0.active = false }
            return try await medicationJSON(stopped)
        }
        medications.post("{id}/refill") { request, context -> JSONValue in
            let (id, actor) = try Self.named(context)
            let refill = try await request.decodeIfSent(as: Refill.self, context: context)
            let refilled = try await store.refill(medicationId: id, packages: refill?.packages ?? 1, as: actor,
                                                  by: context.caller.origin)
            return try await medicationJSON(refilled)
        }
        medications.get("{id}/history") { _, context -> [JSONValue] in
            let medication = try await visibleMedication(context)
            return try await store.medicationRevisions(id: medication.id).map { revision in
                ["revision": .number(Double(revision.revision)), "time": .of(revision.time),
                 "actor": .string(revision.actor), "medication": revision.snapshot]
            }
        }
        addScheduleRoutes(to: medications)
    }

    /// `/api/v1/medications/{id}/schedules`: changing a schedule starts a new
    /// version from now on, so doses already due keep the plan they had.
    func addScheduleRoutes(to medications: RouterGroup<HearthRequestContext>) {
        medications.get("{id}/schedules") { _, context -> [JSONValue] in
            let medication = try await visibleMedication(context)
            return try await store.schedules(medicationId: medication.id).map(\.json)
        }
        medications.post("{id}/schedules") { request, context -> EditedResponse<JSONValue> in
            let (id, actor) = try Self.named(context)
            let body = try await request.decode(as: ScheduleBody.self, context: context)
            let today = LocalDate(now(), in: try await circle.timeZone())
            let schedule = try await store.addSchedule(body.schedule(medicationId: id, today: today), as: actor,
                                                       by: context.caller.origin)
            return EditedResponse(
                status: .created, headers: [.location: APIPath.link(.medications, id, "schedules", schedule.id.text)],
                response: schedule.json)
        }
        medications.put("{id}/schedules/{scheduleId}") { request, context -> JSONValue in
            let (id, actor) = try Self.named(context)
            let scheduleId = try CareQuery.id("scheduleId", in: context, what: "That schedule")
            let body = try await request.decode(as: ScheduleBody.self, context: context)
            // Without a start date the schedule keeps its own, so an
            // every-other-day plan does not lose its rhythm.
            let replaced = try await store.replaceSchedule(id: scheduleId, ofMedication: id, as: actor, by: context.caller.origin) {
                try body.schedule(medicationId: id, today: $0.startDate)
            }
            return replaced.json
        }
        medications.delete("{id}/schedules/{scheduleId}") { _, context -> Response in
            let (id, actor) = try Self.named(context)
            let scheduleId = try CareQuery.id("scheduleId", in: context, what: "That schedule")
            try await store.removeSchedule(id: scheduleId, ofMedication: id, as: actor, by: context.caller.origin)
            return Response(status: .noContent)
        }
    }

    /// A medication with its current schedules and how many days its stock
    /// lasts at their pace (null when nobody counts the stock, or nothing
    /// is taken on a schedule).
    func medicationJSON(_ medication: Medication) async throws -> JSONValue {
        Self.json(medication, schedules: try await store.schedules(medicationId: medication.id))
    }

    static func json(_ medication: Medication, schedules: [DoseSchedule]) -> JSONValue {
        let days = medication.stock.flatMap { StockForecast.daysRemaining(stock: $0, schedules: schedules) }
        return medication.json.adding([
            "schedules": .array(schedules.map(\.json)),
            "daysRemaining": .of(days.map { ($0 * 10).rounded(.down) / 10 }),
        ])
    }

    /// The medication in the path, if the caller may see it (else 404).
    func visibleMedication(_ context: HearthRequestContext) async throws -> Medication {
        let (id, actor) = try Self.named(context)
        return try await store.medication(id: id, visibleTo: actor)
    }

    /// The medication the path names, and who asks.
    static func named(_ context: HearthRequestContext) throws -> (UUID, PermissionPolicy.Actor) {
        let actor = try context.requirePaired()
        return (try CareQuery.id(in: context, what: "That medication"), actor)
    }
}
