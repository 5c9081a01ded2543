import Foundation
import HearthCore
import HearthTestSupport
import Testing

@Suite struct MedicationTests {
    static let senior = UUID()

    @Test func aMedicationWithoutAUnitIsCountedInTabletsAndTextIsTrimmed() throws {
        let medication = try Medication(personId: Self.senior, name: "  Metformina ", strength: "500 mg", unit: " ",
                                        createdAt: Date(), updatedAt: Date()).validated()
        expectEqual(medication.name, "Metformina")
        expectEqual(medication.unit, "tablets")
    }

    @Test func everyWrongFieldIsNamedAtOnce() {
        let wrong = Medication(personId: Self.senior, name: " ", stock: -1, packageSize: 0, lowStockDays: 400,
                               createdAt: Date(), updatedAt: Date())
        #expect(throws: HearthError.invalid(fields: [
            "name": "must not be empty", "stock": "must be 0 to 100000",
            "packageSize": "must be more than 0 and at most 100000", "lowStockDays": "must be 0 to 365 days",
        ])) { try wrong.validated() }
    }

    @Test(arguments: [
        #"{"kind": "weekly", "times": ["08:00", "20:00"], "weekdays": [1, 3, 5]}"#,
        #"{"kind": "everyNDays", "interval": 2, "times": ["09:00"]}"#,
        #"{"kind": "cyclic", "daysOn": 21, "daysOff": 7, "times": ["21:00"]}"#,
        #"{"kind": "everyNHours", "interval": 4, "from": "08:00", "until": "20:00"}"#,
        #"{"kind": "asNeeded", "minimumIntervalMinutes": 240, "dailyMaximum": 4}"#,
    ])
    func aPatternReadsAndWritesTheSameFlatJSON(text: String) throws {
        let pattern = try JSONDecoder().decode(DoseSchedule.Pattern.self, from: Data(text.utf8))
        let written = try JSONDecoder().decode(JSONValue.self, from: try JSONEncoder().encode(pattern))
        expectEqual(written, (try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))))
    }

    @Test func anImpossibleTimeIsRefusedNamingTheField() {
        #expect(throws: HearthError.invalid(fields: ["time": "must be a time of day from 00:00 to 23:59"])) {
            try JSONDecoder().decode(DoseSchedule.Pattern.self, from: Data(#"{"kind": "weekly", "times": ["25:00"]}"#.utf8))
        }
    }

    @Test func remindersFollowTheRules() throws {
        let due = Date(timeIntervalSince1970: 1_800_000_000)
        let dose = DueDose(scheduleId: UUID(), medicationId: UUID(), date: try LocalDate("2027-01-15"), time: try LocalTime("08:00"), due: due, amount: 1)
        let settings = ReminderSettings()
        func step(_ recorded: ReminderRules.Recorded?, after minutes: Double) -> ReminderRules.Step {
            ReminderRules.step(for: dose, recorded: recorded, at: due.addingTimeInterval(minutes * 60), settings: settings)
        }
        expectEqual(step(nil, after: -5), .init(action: .nothing, nextCheck: due))
        expectEqual(step(nil, after: 0), .init(action: .raiseDue, nextCheck: due.addingTimeInterval(600)))
        expectEqual(step(nil, after: 45), .init(action: .markMissed, nextCheck: nil))
        let reminded = ReminderRules.Recorded(status: .due, remindedAt: due)
        expectEqual(step(reminded, after: 5), .init(action: .nothing, nextCheck: due.addingTimeInterval(600)))
        expectEqual(step(reminded, after: 10), .init(action: .remindAgain, nextCheck: due.addingTimeInterval(1200)))
        expectEqual(step(reminded, after: 30), .init(action: .markMissed, nextCheck: nil))
        let snoozed = ReminderRules.Recorded(status: .snoozed, snoozedUntil: due.addingTimeInterval(3600))
        expectEqual(step(snoozed, after: 45), .init(action: .nothing, nextCheck: due.addingTimeInterval(3600)))
        expectEqual(step(snoozed, after: 60).action, .remindAgain)
        expectEqual(step(snoozed, after: 90).action, .markMissed)
        for answered in [Dose.Status.taken, .skipped, .missed] {
            expectEqual(step(.init(status: answered), after: 120), .init(action: .nothing, nextCheck: nil))
        }
    }
}
