import Foundation
import HearthCore
import HearthStore
import Hummingbird

/// `/api/v1/today`: the doses of one day, for each senior the caller looks
/// after (a senior: just themself), as the Today page shows them — in time
/// order, grouped into morning, midday, evening and night, with a count of
/// what is done and what is still to come.
struct TodayController {
    let store: HearthStore
    /// The hub's time, corrected when someone said its clock was wrong;
    /// given by the router, never the system clock directly.
    let now: @Sendable () -> Date
    /// Each person's day as last written out, until the next change or the next dose's time.
    let cache: ReadCache

    var circle: CareCircle { CareCircle(store: store) }

    struct TakeAll: Decodable {
        var personId: UUID
        /// `YYYY-MM-DD`; today when absent.
        var date: String?
        var slot: DoseSlot
    }

    func addRoutes(to api: RouterGroup<HearthRequestContext>) {
        let today = api.group(.today)
        today.get { request, context -> Response in
            let actor = try context.requirePaired()
            let moment = now()
            return try await cache.response(for: .init(actor: actor, uri: request.uri.description), at: moment) {
                let zone = try await circle.timeZone()
                let today = LocalDate(moment, in: zone)
                let given = request.uri.queryParameters.get("date") != nil
                let date = try CareQuery.localDate("date", in: request, default: today)
                let seniors = try await circle.seniors(
                    named: request.uri.queryParameters.get("personId"), visibleTo: actor) { .care(of: $0) }
                var people: [JSONValue] = []
                // True until the next unanswered dose turns due, or, for "today", until midnight.
                var validUntil = given ? Date.distantFuture : WallClock.instant(today.adding(days: 1), CareQuery.midnight, in: zone)
                for senior in seniors {
                    let plan = try await store.dayPlan(personId: senior.id, date: date)
                    var day = Self.day(of: senior, planned: plan.planned, asNeeded: plan.asNeeded, at: moment)
                    // The first dose after this day, so a day with nothing
                    // left (or nothing at all) still says when the next is.
                    let next = try await store.nextPlannedDose(
                        personId: senior.id, from: WallClock.instant(date.adding(days: 1), CareQuery.midnight, in: zone))
                    if case .object(var fields) = day {
                        fields["next"] = next.map { Self.nextDose($0.dose, of: $0.medication) } ?? .null
                        day = .object(fields)
                    }
                    people.append(day)
                    for item in plan.planned where item.dose == nil && item.planned.due > moment {
                        validUntil = min(validUntil, item.planned.due)
                    }
                }
                let json: JSONValue = ["date": .string(date.description), "timeZone": .string(zone.identifier), "people": .array(people)]
                return (json, validUntil)
            }
        }
        today.post("take-all") { request, context -> [JSONValue] in
            let body = try await request.decode(as: TakeAll.self, context: context)
            let actor = try context.require(.create, .care(of: body.personId), what: "That person")
            let today = LocalDate(now(), in: try await circle.timeZone())
            let date = try body.date.map { try CareQuery.localDate($0, field: "date") } ?? today
            let taken = try await store.takeAll(personId: body.personId, date: date, slot: body.slot,
                                                as: actor, by: context.caller.origin)
            return taken.map(\.json)
        }
    }

    /// One senior's day.
    static func day(of senior: Person, planned: [PlannedDose], asNeeded: [Dose], at moment: Date) -> JSONValue {
        let doses = planned.map { plannedDose($0, at: moment) }
        var counts: [String: Int] = ["taken": 0, "skipped": 0, "missed": 0, "due": 0, "upcoming": 0]
        for dose in doses {
            guard case .string(let status)? = dose.field("status") else { continue }
            // A snoozed dose still waits for an answer: it counts as due. One
            // planned before its medicine was entered is in no count.
            guard status != "unrecorded" else { continue }
            counts[status == Dose.Status.snoozed.rawValue ? "due" : status, default: 0] += 1
        }
        return [
            "personId": .of(senior.id), "name": .string(senior.name), "doses": .array(doses),
            "asNeeded": .array(asNeeded.map(\.json)),
            "counts": .object(counts.mapValues { .number(Double($0)) }),
        ]
    }

    /// The next day's first dose, as Today names it: "Next: tomorrow at 08:00, Metformin".
    static func nextDose(_ planned: DueDose, of medication: Medication) -> JSONValue {
        [
            "key": .string(planned.key), "medicationId": .of(medication.id), "medicationName": .string(medication.name),
            "strength": .string(medication.strength), "unit": .string(medication.unit), "amount": .number(planned.amount),
            "dueAt": .of(planned.due), "date": .string(planned.date.description), "time": .string(planned.time.description),
        ]
    }

    /// A planned dose with what the Today page shows beside it. Its status is
    /// what was recorded; with nothing recorded, "upcoming" before its time
    /// and "due" from then on (until the reminder pass records it).
    static func plannedDose(_ item: PlannedDose, at moment: Date) -> JSONValue {
        // Before its schedule was entered nobody was reminded: "unrecorded",
        // to be answered, never counted missed.
        let status = item.dose?.status.rawValue
            ?? (item.beforeEntry ? "unrecorded" : moment < item.planned.due ? "upcoming" : Dose.Status.due.rawValue)
        let medication = item.medication
        return [
            "key": .string(item.planned.key), "medicationId": .of(medication.id), "medicationName": .string(medication.name),
            "strength": .string(medication.strength), "unit": .string(medication.unit),
            "appearance": .string(medication.appearance), "instructions": .string(medication.instructions),
            "amount": .number(item.planned.amount), "dueAt": .of(item.planned.due), "time": .string(item.planned.time.description),
            "slot": .string(item.planned.slot.rawValue), "status": .string(status), "dose": item.dose?.json ?? .null,
        ]
    }
}
