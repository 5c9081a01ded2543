import Foundation
import HearthCore
import HearthStore
import HearthTestSupport
import Testing

/// The next dose, which Today names when nothing is left of the day: a
/// medicine added in the evening for 08:00 and 20:00 looked absent.
@Suite struct NextDoseTests {
    @Test func aMedicineAddedInTheEveningIsNextDueTomorrowMorning() async throws {
        let home = try await CareHome(start: try CareHome.instant("2026-03-10", "20:30"))
        try await home.medication("Metformina", .weekly(times: [try LocalTime("08:00"), try LocalTime("20:00")], weekdays: Set(1...7)))
        try await home.medication("Witamina D", .weekly(times: [try LocalTime("08:00")], weekdays: [1]))  // Mondays
        let tomorrow = try home.at("2026-03-11", "00:00")
        let next = try #require(try await home.store.nextPlannedDose(personId: home.senior.id, from: tomorrow))
        expectEqual(next.medication.name, "Metformina")
        expectEqual(next.dose.due, (try home.at("2026-03-11", "08:00")))
        // From a Sunday evening, Monday's first dose is the earlier name of the two at 08:00
        let monday = try #require(try await home.store.nextPlannedDose(personId: home.senior.id, from: try home.at("2026-03-15", "20:01")))
        expectEqual(monday.dose.due, (try home.at("2026-03-16", "08:00")))
        expectEqual(monday.medication.name, "Metformina")
    }

    @Test func nothingPlannedIsNoNextDose() async throws {
        let home = try await CareHome(start: try CareHome.instant("2026-03-10", "07:00"))
        #expect(try await home.store.nextPlannedDose(personId: home.senior.id, from: home.time.now) == nil)
        let (medication, _) = try await home.medication("Ramipril", .weekly(times: [try LocalTime("08:00")], weekdays: Set(1...7)))
        #expect(try await home.store.nextPlannedDose(personId: home.senior.id, from: home.time.now) != nil)
        // A stopped medicine plans nothing
        _ = try await home.store.updateMedication(id: medication.id, as: home.caregiverActor, .delete, by: "test") { $0.active = false }
        #expect(try await home.store.nextPlannedDose(personId: home.senior.id, from: home.time.now) == nil)
    }
}
