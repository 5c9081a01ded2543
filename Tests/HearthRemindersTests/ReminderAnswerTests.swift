import Foundation
import HearthCore
import HearthStore
import HearthTestSupport
import Testing

/// A dose's reminder is answered where it appears, and nothing but an
/// answer closes it: "OK" once recorded nothing, the dose was counted
/// missed and the caregivers told of a dose the senior had taken.
@Suite struct ReminderAnswerTests {
    static func key(_ schedule: DoseSchedule, _ time: String) -> String {
        "\(schedule.id.uuidString.lowercased())/2026-03-10T\(time)"
    }

    @Test func aRemindersOnlyWayOutIsAnAnswerNeverAnOK() async throws {
        let home = try await CareHome(start: try CareHome.instant("2026-03-10", "07:00"))
        let (_, schedule) = try await home.medication("Omeprazol", .weekly(times: [try LocalTime("08:00")], weekdays: Set(1...7)))
        try await ReminderPassTests.run(home, until: try home.at("2026-03-10", "08:01"))
        let reminder = try #require(try await home.alerts().first)
        expectEqual(reminder.kind, .doseDue)
        // It names the dose its buttons answer
        expectEqual(reminder.details.field("doseKey"), .string(Self.key(schedule, "08:00")))

        // "OK" from any device is refused while the dose waits, and changes nothing
        await #expect(throws: HearthError.conflict("A dose's reminder closes when the dose is answered: Taken, Skip or Later")) {
            _ = try await home.store.acknowledgeAlert(id: reminder.id, as: home.seniorActor, by: "test")
        }
        #expect(try await home.store.alert(id: reminder.id)?.acknowledgedAt == nil)

        // Its own Taken closes it, and the hours after raise nothing missed
        _ = try await home.store.answerDose(key: Self.key(schedule, "08:00"), .taken(at: nil), as: home.seniorActor, by: "test")
        try await ReminderPassTests.run(home, until: try home.at("2026-03-10", "12:00"))
        let alerts = try await home.alerts()
        expectEqual(alerts.map(\.kind), [.doseDue])
        expectEqual(alerts[0].resolvedAt, (try home.at("2026-03-10", "08:01")))
        expectEqual(alerts[0].details.field("answer"), .string("taken"))
    }

    @Test func laterPutsTheDoseOffUntilTheNextReminderWouldHaveCome() async throws {
        let home = try await CareHome(start: try CareHome.instant("2026-03-10", "07:00"))
        _ = try await home.store.updateReminderSettings(ReminderSettings(graceMinutes: 30, repeatMinutes: 15), as: .hubTerminal, by: "test")
        let (_, schedule) = try await home.medication("Omeprazol", .weekly(times: [try LocalTime("08:00")], weekdays: Set(1...7)))
        try await ReminderPassTests.run(home, until: try home.at("2026-03-10", "08:02"))
        let (later, recorded) = try await home.store.answerDose(key: Self.key(schedule, "08:00"), .snoozed(minutes: nil),
                                                                 as: home.seniorActor, by: "test")
        #expect(recorded && later.status == .snoozed)
        expectEqual(later.snoozedUntil, (try home.at("2026-03-10", "08:17")), "the household's 15 minutes")
        // The reminder is closed until then, and comes back then
        try await expectEqual(home.alerts().first?.resolvedAt, (try home.at("2026-03-10", "08:02")))
        try await ReminderPassTests.run(home, until: try home.at("2026-03-10", "08:17"))
        let again = try #require(try await home.alerts().first)
        #expect(again.resolvedAt == nil && again.repeats == 1)
        // A choice of minutes is still one of the Today page's
        await #expect(throws: HearthError.self) {
            _ = try await home.store.answerDose(key: Self.key(schedule, "08:00"), .snoozed(minutes: 15), as: home.seniorActor, by: "t")
        }
    }

    @Test func aMissedDoseTakenAfterAllAnswersTheCaregiversAlertAndSaysHow() async throws {
        let home = try await CareHome(start: try CareHome.instant("2026-03-10", "07:00"))
        let (_, schedule) = try await home.medication("Omeprazol", .weekly(times: [try LocalTime("08:00")], weekdays: Set(1...7)))
        try await ReminderPassTests.run(home, until: try home.at("2026-03-10", "09:00"))
        let missed = try #require(try await home.alerts().first { $0.kind == .doseMissed })
        #expect(missed.resolvedAt == nil)
        // She took it at 08:10 and says so at 09:00
        let takenAt = try home.at("2026-03-10", "08:10")
        let (dose, recorded) = try await home.store.answerDose(key: Self.key(schedule, "08:00"), .taken(at: takenAt),
                                                                as: home.seniorActor, by: "test")
        #expect(recorded && dose.status == .taken && dose.takenAt == takenAt)
        let answered = try #require(try await home.store.alert(id: missed.id))
        expectEqual(answered.resolvedAt, (try home.at("2026-03-10", "09:00")))
        expectEqual(answered.details.field("answer"), .string("taken"))
        expectEqual(answered.details.field("takenAt"), .of(takenAt))
        expectEqual(answered.details.field("answeredByName"), .string(home.senior.name))
        // With nothing left to answer, OK closes a reminder as before
        let reminder = try #require(try await home.alerts().first { $0.kind == .doseDue })
        #expect(try await home.store.acknowledgeAlert(id: reminder.id, as: home.seniorActor, by: "test").acknowledgedAt != nil)
    }
}
