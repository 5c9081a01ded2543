import Foundation
import HearthCore
import HearthStore
import HearthTestSupport
import Testing

/// The reminder pass on a simulated clock: what is raised, repeated and
/// escalated, at which second, and that nothing is raised twice.
@Suite struct ReminderPassTests {
    /// Runs passes the way the service does: at each moment the last pass
    /// asked for, until `end`. Returns the moments it woke.
    @discardableResult
    static func run(_ home: CareHome, until end: Date) async throws -> [Date] {
        var woke: [Date] = []
        while true {
            let pass = try await home.store.remind(at: home.time.now, as: .reminderService)
            woke.append(home.time.now)
            guard let next = pass.nextCheck, next <= end else { break }
            home.time.set(max(next, home.time.now))
        }
        home.time.set(end)
        _ = try await home.store.remind(at: end, as: .reminderService)
        return woke
    }

    /// The pass is the reminder service's alone: no person, not even the
    /// console's admin, marks a dose missed by running it.
    @Test func onlyTheReminderServiceRunsThePass() async throws {
        let home = try await CareHome(start: try CareHome.instant("2026-03-10", "07:00"))
        try await home.medication("Metformina", .weekly(times: [try LocalTime("08:00")], weekdays: Set(1...7)))
        home.time.set(try home.at("2026-03-10", "09:00"))
        for someone in [PermissionPolicy.Actor.hubTerminal, .notekBridge, .restore, home.caregiverActor] {
            await #expect(throws: HearthError.self) { try await home.store.remind(at: home.time.now, as: someone) }
        }
        #expect(try await home.alerts().isEmpty, "nothing was raised")
        _ = try await home.store.remind(at: home.time.now, as: .reminderService)
        #expect(try await home.alerts().map(\.kind).contains(.doseMissed))
    }

    @Test func aDueDoseIsRaisedAtItsSecondRepeatedThenEscalatedOnce() async throws {
        let home = try await CareHome(start: try CareHome.instant("2026-03-10", "07:00"))
        try await home.medication("Metformina", .weekly(times: [try LocalTime("08:00")], weekdays: Set(1...7)))
        try await Self.run(home, until: try home.at("2026-03-10", "09:00"))

        let alerts = try await home.alerts()
        expectEqual(alerts.map(\.kind), [.doseDue, .doseMissed])
        let due = alerts[0]
        expectEqual(due.raisedAt, (try home.at("2026-03-10", "08:00")))
        expectEqual(due.audience, .senior)
        // 08:10 and 08:20 repeat; at 08:30 the grace is over.
        expectEqual(due.repeats, 2)
        expectEqual(due.resolvedAt, (try home.at("2026-03-10", "08:30")))
        let missed = alerts[1]
        expectEqual(missed.raisedAt, (try home.at("2026-03-10", "08:30")))
        expectEqual(missed.audience, .caregivers)
        expectEqual(missed.details.field("medicationName"), .string("Metformina"))
        let plan = try await home.store.dayPlan(personId: home.senior.id, date: try home.date("2026-03-10"))
        expectEqual(plan.planned.map(\.dose?.status), [.missed])
    }

    @Test func aDoseTakenInTimeRaisesNothingMoreAndAnsweringResolvesTheBanner() async throws {
        let home = try await CareHome(start: try CareHome.instant("2026-03-10", "07:00"))
        let (_, schedule) = try await home.medication("Bisoprolol", .weekly(times: [try LocalTime("08:00")], weekdays: Set(1...7)))
        try await Self.run(home, until: try home.at("2026-03-10", "08:05"))
        let key = "\(schedule.id.uuidString.lowercased())/2026-03-10T08:00"
        let (dose, recorded) = try await home.store.answerDose(key: key, .taken(at: nil), as: home.seniorActor, by: "test")
        #expect(recorded && dose.status == .taken)
        // A double tap is recorded once.
        let (again, recordedAgain) = try await home.store.answerDose(key: key, .taken(at: nil), as: home.seniorActor, by: "test")
        #expect(!recordedAgain && again.id == dose.id && again.takenAt == dose.takenAt)
        try await Self.run(home, until: try home.at("2026-03-10", "12:00"))
        let alerts = try await home.alerts()
        expectEqual(alerts.map(\.kind), [.doseDue])
        expectEqual(alerts[0].resolvedAt, (try home.at("2026-03-10", "08:05")))
        expectEqual(alerts[0].repeats, 0)
    }

    @Test func aSnoozeSilencesTheReminderUntilItEndsAndTheGraceCountsFromThere() async throws {
        let home = try await CareHome(start: try CareHome.instant("2026-03-10", "07:00"))
        let (_, schedule) = try await home.medication("Bisoprolol", .weekly(times: [try LocalTime("08:00")], weekdays: Set(1...7)))
        try await Self.run(home, until: try home.at("2026-03-10", "08:02"))
        let key = "\(schedule.id.uuidString.lowercased())/2026-03-10T08:00"
        let (snoozed, _) = try await home.store.answerDose(key: key, .snoozed(minutes: 30), as: home.seniorActor, by: "test")
        expectEqual(snoozed.snoozedUntil, (try home.at("2026-03-10", "08:32")))
        let woke = try await Self.run(home, until: try home.at("2026-03-10", "10:00"))
        // Asleep through the snooze; reminded at 08:32, 08:42, 08:52; missed at 09:02.
        let (asleepFrom, asleepUntil) = (try home.at("2026-03-10", "08:02"), try home.at("2026-03-10", "08:32"))
        #expect(!woke.contains { $0 > asleepFrom && $0 < asleepUntil })
        let alerts = try await home.alerts()
        expectEqual(alerts.map(\.kind), [.doseDue, .doseMissed])
        expectEqual(alerts[0].repeats, 3)
        expectEqual(alerts[1].raisedAt, (try home.at("2026-03-10", "09:02")))
    }

    @Test func afterAThreeHourOutageEachDoseIsRaisedOrEscalatedOnceAndNeverTwice() async throws {
        let home = try await CareHome(start: try CareHome.instant("2026-03-10", "07:00"))
        try await home.medication("Ramipril", .weekly(times: [try LocalTime("08:00"), try LocalTime("10:50")], weekdays: Set(1...7)))
        try await Self.run(home, until: try home.at("2026-03-10", "07:59"))
        // The hub is off from 07:59 to 10:59.
        home.time.set(try home.at("2026-03-10", "10:59"))
        try home.restart()
        try await Self.run(home, until: try home.at("2026-03-10", "11:00"))
        try home.restart()
        try await Self.run(home, until: try home.at("2026-03-10", "13:00"))

        // Alerts raised in one pass share a time; order them by the dose's time.
        let alerts = try await home.alerts().sorted { ($0.raisedAt, $0.details.field("plannedTime")?.text ?? "") < ($1.raisedAt, $1.details.field("plannedTime")?.text ?? "") }
        // 08:00 was past its grace: escalated at once, with no due alert first.
        // 10:50 was still in its grace: raised (late, once), then escalated at 11:20.
        expectEqual(alerts.map(\.kind), [.doseMissed, .doseDue, .doseMissed])
        expectEqual(alerts[0].raisedAt, (try home.at("2026-03-10", "10:59")))
        expectEqual(alerts[1].raisedAt, (try home.at("2026-03-10", "10:59")))
        expectEqual(alerts[2].raisedAt, (try home.at("2026-03-10", "11:20")))
    }

    @Test func aClockThatJumpsBackRaisesNothingAgain() async throws {
        let home = try await CareHome(start: try CareHome.instant("2026-03-10", "07:00"))
        try await home.medication("Ramipril", .weekly(times: [try LocalTime("08:00")], weekdays: Set(1...7)))
        try await Self.run(home, until: try home.at("2026-03-10", "09:00"))
        home.time.set(try home.at("2026-03-10", "07:30"))
        try await Self.run(home, until: try home.at("2026-03-10", "09:00"))
        // The dose's alerts stay as they were; the jump itself is reported.
        let alerts = try await home.alerts()
        #expect(alerts.filter { $0.kind != .clock }.map(\.kind) == [.doseDue, .doseMissed])
        #expect(alerts.filter { $0.kind == .clock }.count == 1)
    }

    @Test func aScheduleEditedMidDayKeepsRecordedDosesAndPlansTheRestAnew() async throws {
        let home = try await CareHome(start: try CareHome.instant("2026-03-10", "07:00"))
        let (_, schedule) = try await home.medication("Metformina", .weekly(times: [try LocalTime("08:00"), try LocalTime("20:00")], weekdays: Set(1...7)))
        try await Self.run(home, until: try home.at("2026-03-10", "08:01"))
        _ = try await home.store.answerDose(key: "\(schedule.id.uuidString.lowercased())/2026-03-10T08:00", .taken(at: nil),
                                            as: home.seniorActor, by: "test")
        home.time.set(try home.at("2026-03-10", "12:00"))
        var edited = schedule
        edited.pattern = .weekly(times: [try LocalTime("08:00"), try LocalTime("18:00")], weekdays: Set(1...7))
        edited.amount = 0.5
        _ = try await home.store.replaceSchedule(id: schedule.id, ofMedication: schedule.medicationId, as: home.caregiverActor, by: "test") { [edited] _ in edited }

        let plan = try await home.store.dayPlan(personId: home.senior.id, date: try home.date("2026-03-10")).planned
        expectEqual(plan.map(\.planned.time.description), ["08:00", "18:00"])
        expectEqual(plan.map(\.planned.amount), [1, 0.5])
        expectEqual(plan[0].dose?.status, .taken)
        let tomorrow = try await home.store.dayPlan(personId: home.senior.id, date: try home.date("2026-03-11")).planned
        expectEqual(tomorrow.map(\.planned.time.description), ["08:00", "18:00"])
        expectEqual(tomorrow.map(\.planned.amount), [0.5, 0.5])
        try await Self.run(home, until: try home.at("2026-03-10", "23:00"))
        #expect(try await home.alerts().map { $0.details.field("plannedTime") } == [.string("08:00"), .string("18:00"), .string("18:00")])
    }

    @Test(arguments: [("Europe/Warsaw", "2026-03-29", "2026-10-25"), ("America/New_York", "2026-03-08", "2026-11-01")])
    func dosesAt0230OnDaylightSavingDaysHappenOnce(zone: String, springForward: String, fallBack: String) async throws {
        for day in [springForward, fallBack] {
            let start = WallClock.instant(try LocalDate(day), try LocalTime("00:00"), in: TimeZone(identifier: zone)!)
            let home = try await CareHome(start: start, timeZone: zone)
            try await home.medication("Lek", .weekly(times: [try LocalTime("02:30")], weekdays: Set(1...7)))
            // A fall-back day lasts 25 hours: run to 04:00 the next day by the wall clock.
            try await Self.run(home, until: WallClock.instant(try LocalDate(day).adding(days: 1), try LocalTime("04:00"), in: home.zone))
            let due = try await home.alerts().filter { $0.kind == .doseDue }
            // That night's dose and the next night's, each once.
            expectEqual(due.count, 2, "\(zone) \(day)")
            #expect(Set(due.compactMap { $0.details.field("dueAt") }).count == 2)
        }
    }
}

extension CareHome {
    /// An instant in Europe/Warsaw, for a test's start.
    static func instant(_ date: String, _ time: String) throws -> Date {
        WallClock.instant(try LocalDate(date), try LocalTime(time), in: TimeZone(identifier: "Europe/Warsaw")!)
    }
}

extension JSONValue {
    var text: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    func field(_ name: String) -> JSONValue? {
        if case .object(let object) = self { return object[name] }
        return nil
    }
}
