import Foundation
import HearthCore
import HearthStore
import HearthTestSupport
import Testing

/// A medicine that started this morning and is entered in the evening:
/// Today plans its morning dose, to be answered, and the hub never reminds
/// of it nor tells the caregivers it was missed (it did not know in time).
@Suite struct PlannedFromStartTests {
    @Test func aMedicineAddedInTheEveningPlansItsMorningDoseButNeverCallsItMissed() async throws {
        let home = try await CareHome(start: try CareHome.instant("2026-03-10", "20:30"))
        let (_, schedule) = try await home.medication("Metformina", .weekly(times: [try LocalTime("08:00"), try LocalTime("21:00")], weekdays: Set(1...7)))
        let plan = try await home.store.dayPlan(personId: home.senior.id, date: try home.date("2026-03-10")).planned
        expectEqual(plan.map(\.planned.time.description), ["08:00", "21:00"])
        expectEqual(plan.map(\.beforeEntry), [true, false])

        // The hours pass: the 21:00 dose is reminded and escalated, the 08:00 one never
        try await ReminderPassTests.run(home, until: try home.at("2026-03-11", "07:00"))
        let alerts = try await home.alerts()
        expectEqual(alerts.map(\.kind), [.doseDue, .doseMissed])
        #expect(alerts.allSatisfy { $0.details.field("plannedTime") == .string("21:00") })

        // And she may still say she took it this morning
        let key = "\(schedule.id.uuidString.lowercased())/2026-03-10T08:00"
        let (dose, recorded) = try await home.store.answerDose(key: key, .taken(at: try home.at("2026-03-10", "08:05")),
                                                                as: home.seniorActor, by: "test")
        #expect(recorded && dose.status == .taken)
    }

    @Test func onlyTheDayBeforeIsReachedAndNeverBeforeTheStartDate() async throws {
        let home = try await CareHome(start: try CareHome.instant("2026-03-10", "20:30"))
        try await home.medication("Witamina D", .weekly(times: [try LocalTime("08:00")], weekdays: Set(1...7)),
                                  startDate: try home.date("2026-03-01"))
        try await home.medication("Ramipril", .weekly(times: [try LocalTime("09:00")], weekdays: Set(1...7)),
                                  startDate: try home.date("2026-03-12"))
        func planned(_ day: String) async throws -> [String] {
            try await home.store.dayPlan(personId: home.senior.id, date: try home.date(day)).planned.map(\.medication.name)
        }
        try await expectEqual(planned("2026-03-08"), [])
        try await expectEqual(planned("2026-03-09"), ["Witamina D"], "the day before it was entered")
        try await expectEqual(planned("2026-03-10"), ["Witamina D"])
        try await expectEqual(planned("2026-03-12"), ["Witamina D", "Ramipril"], "a later start is planned as before")
    }
}
