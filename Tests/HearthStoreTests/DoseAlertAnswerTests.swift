import Foundation
import HearthCore
@testable import HearthStore
import HearthTestSupport
import Testing

/// A missed dose's alert says how it was answered, and keeps saying what
/// the dose is now: a tester read "Taken at 13:22" on an alert whose dose
/// had been put right to skipped.
@Suite struct DoseAlertAnswerTests {
    /// Babcia Zosia's 10:00 dose (the clock starts at 09:00 in Warsaw),
    /// missed at 10:45 with the household's 30 minutes of grace: its alert.
    static func missedDose(_ home: NotesTests.Household) async throws -> CareAlert {
        let store = home.store
        let medication = try await store.addMedication(
            Medication(personId: home.senior.id, name: "Metformina", createdAt: home.clock.now, updatedAt: home.clock.now),
            as: home.actor(home.caregiver), by: "t")
        _ = try await store.addSchedule(
            DoseSchedule(medicationId: medication.id, pattern: .everyNDays(interval: 1, times: [try LocalTime("10:00")]), amount: 1,
                         startDate: LocalDate(home.clock.now, in: TimeZone(identifier: "Europe/Warsaw")!)),
            as: home.actor(home.caregiver), by: "t")
        home.clock.advance(105 * 60)
        _ = try await store.remind(at: home.clock.now, as: .reminderService)
        let alerts = try await store.alerts(about: [home.senior.id], includeHubAlerts: false, openOnly: true)
        return try #require(alerts.first { $0.kind == .doseMissed })
    }

    static func key(_ alert: CareAlert) throws -> String {
        guard case .string(let key)? = alert.details.field("doseKey") else { throw HearthError.notFound(what: "doseKey") }
        return key
    }

    @Test func aMissedDoseTakenAfterItsGraceSaysLateAndACorrectionToSkippedIsFollowed() async throws {
        let directory = try TemporaryDirectory()
        let home = try await NotesTests.household(directory)
        defer { try? home.store.close() }
        let store = home.store
        let missed = try await Self.missedDose(home)
        let dueAt = home.clock.now.addingTimeInterval(-45 * 60)

        // She took it at 10:40, ten minutes past the moment it counted missed, and says so at 10:45
        let (dose, _) = try await store.answerDose(key: try Self.key(missed), .taken(at: dueAt.addingTimeInterval(40 * 60)),
                                                   as: home.actor(home.senior), by: "t")
        let answered = try #require(try await store.alert(id: missed.id))
        expectEqual(answered.details.field("answer"), "taken")
        expectEqual(answered.details.field("takenLate"), .bool(true))
        expectEqual(answered.details.field("answeredByName"), .string(home.senior.name))

        // Ania puts it right at 10:50: it was skipped after all
        home.clock.advance(5 * 60)
        let before = try await store.latestSeq()
        _ = try await store.correctDose(id: dose.id, takenAt: nil, status: .skipped, reason: nil, as: home.actor(home.caregiver), by: "t")
        let corrected = try #require(try await store.alert(id: missed.id))
        expectEqual(corrected.details.field("answer"), "skipped")
        #expect(corrected.details.field("takenAt") == nil && corrected.details.field("takenLate") == nil, "nothing of the taking is left")
        expectEqual(corrected.details.field("correctedByName"), .string(home.caregiver.name))
        expectEqual(corrected.details.field("correctedAt"), .of(home.clock.now))
        expectEqual(corrected.details.field("answeredAt"), answered.details.field("answeredAt"), "when it was first answered stays")
        expectEqual(corrected.resolvedAt, answered.resolvedAt)
        // …through the one write path, in the correction's own transaction, so open pages hear it
        let changes = try await store.changes(after: before, limit: 10)
        expectEqual(Set(changes.map(\.seq)).count, changes.count)
        #expect(changes.contains { $0.entity == .alert && $0.entityId == missed.id.text && $0.payload.field("details") == corrected.details })
        #expect(changes.contains { $0.entity == .dose })

        // Taken after all, at 10:20, within its grace: taken, not late
        home.clock.advance(60)
        _ = try await store.correctDose(id: dose.id, takenAt: dueAt.addingTimeInterval(20 * 60), status: .taken, reason: nil,
                                        as: home.actor(home.caregiver), by: "t")
        let onTime = try #require(try await store.alert(id: missed.id))
        expectEqual(onTime.details.field("answer"), "taken")
        expectEqual(onTime.details.field("takenLate"), .bool(false))
        expectEqual(onTime.details.field("takenAt"), .of(dueAt.addingTimeInterval(20 * 60)))

        // A correction that changes nothing writes nothing
        let unchanged = try await store.latestSeq()
        _ = try await store.correctDose(id: dose.id, takenAt: nil, status: .taken, reason: nil, as: home.actor(home.caregiver), by: "t")
        try await expectEqual(store.latestSeq(), unchanged)
    }

    @Test func anAnswerTakenBackLeavesTheAlertSayingSoUntilTheDoseIsAnsweredAgain() async throws {
        let directory = try TemporaryDirectory()
        let home = try await NotesTests.household(directory)
        defer { try? home.store.close() }
        let store = home.store
        let missed = try await Self.missedDose(home)
        let (dose, _) = try await store.answerDose(key: try Self.key(missed), .taken(at: nil), as: home.actor(home.senior), by: "t")
        try await expectEqual(store.alert(id: missed.id)?.details.field("takenLate"), .bool(true), "taken now, at 10:45")

        home.clock.advance(60)
        _ = try await store.withdrawDoseAnswer(id: dose.id, as: home.actor(home.caregiver), by: "t")
        let withdrawn = try #require(try await store.alert(id: missed.id))
        expectEqual(withdrawn.details.field("answer"), "withdrawn")
        #expect(withdrawn.details.field("takenAt") == nil)
        expectEqual(withdrawn.details.field("correctedByName"), .string(home.caregiver.name))

        // Skipped now by Babcia herself: the alert says it, and not who took the first answer back
        home.clock.advance(60)
        _ = try await store.answerDose(key: try Self.key(missed), .skipped(reason: nil), as: home.actor(home.senior), by: "t")
        let again = try #require(try await store.alert(id: missed.id))
        expectEqual(again.details.field("answer"), "skipped")
        expectEqual(again.details.field("answeredAt"), .of(home.clock.now))
        expectEqual(again.details.field("answeredByName"), .string(home.senior.name))
        #expect(again.details.field("correctedByName") == nil)
    }
}
