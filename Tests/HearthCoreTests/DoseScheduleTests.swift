import Foundation
@testable import HearthCore
import HearthTestSupport
import Testing

@Suite struct DoseScheduleTests {
    static let warsaw = TimeZone(identifier: "Europe/Warsaw")!
    static let newYork = TimeZone(identifier: "America/New_York")!
    static let medication = UUID()

    static func date(_ text: String) -> LocalDate { try! LocalDate(text) }
    static func time(_ text: String) -> LocalTime { try! LocalTime(text) }
    static func utc(_ text: String) -> Date { try! Date(text, strategy: .iso8601) }

    static func daily(_ times: [String], from start: String = "2026-01-01", until end: String? = nil) -> DoseSchedule {
        DoseSchedule(medicationId: medication, pattern: .weekly(times: times.map(time), weekdays: Set(1...7)), amount: 1,
                     startDate: date(start), endDate: end.map(date))
    }

    static func dues(_ schedule: DoseSchedule, _ from: String, _ to: String, _ zone: TimeZone = warsaw) -> [Date] {
        schedule.doses(from: utc(from), to: utc(to), in: zone).map(\.due)
    }

    // MARK: Daylight saving: every dose exactly once

    @Test func aDoseAt0230OnTheSpringForwardNightHappensOnceAnHourLater() {
        // Warsaw, 2026-03-29: 02:00 CET becomes 03:00 CEST; 02:30 does not exist.
        let doses = Self.dues(Self.daily(["02:30"]), "2026-03-28T00:00:00Z", "2026-03-31T00:00:00Z")
        expectEqual(doses, [Self.utc("2026-03-28T01:30:00Z"), Self.utc("2026-03-29T01:30:00Z"), Self.utc("2026-03-30T00:30:00Z")])
        // New York, 2026-03-08: 02:00 EST becomes 03:00 EDT.
        let american = Self.dues(Self.daily(["02:30"]), "2026-03-07T00:00:00Z", "2026-03-10T00:00:00Z", Self.newYork)
        expectEqual(american, [Self.utc("2026-03-07T07:30:00Z"), Self.utc("2026-03-08T07:30:00Z"), Self.utc("2026-03-09T06:30:00Z")])
    }

    @Test func aDoseAt0230OnTheFallBackNightHappensOnceAtItsFirstOccurrence() {
        // Warsaw, 2026-10-25: 03:00 CEST becomes 02:00 CET; 02:30 happens twice.
        let doses = Self.dues(Self.daily(["02:30"]), "2026-10-24T00:00:00Z", "2026-10-27T00:00:00Z")
        expectEqual(doses, [Self.utc("2026-10-24T00:30:00Z"), Self.utc("2026-10-25T00:30:00Z"), Self.utc("2026-10-26T01:30:00Z")])
        // New York, 2026-11-01: 02:00 EDT becomes 01:00 EST; 01:30 happens twice.
        let american = Self.dues(Self.daily(["01:30"]), "2026-10-31T00:00:00Z", "2026-11-03T00:00:00Z", Self.newYork)
        expectEqual(american, [Self.utc("2026-10-31T05:30:00Z"), Self.utc("2026-11-01T05:30:00Z"), Self.utc("2026-11-02T06:30:00Z")])
    }

    @Test func aWeekAcrossEitherChangeHasSevenMorningAndSevenEveningDoses() {
        for (zone, from) in [(Self.warsaw, "2026-03-25T00:00:00Z"), (Self.warsaw, "2026-10-22T00:00:00Z"),
                             (Self.newYork, "2026-03-05T00:00:00Z"), (Self.newYork, "2026-10-29T00:00:00Z")] {
            let start = Self.utc(from)
            let doses = Self.daily(["08:00", "20:00"]).doses(from: start, to: start.addingTimeInterval(7 * 86_400), in: zone)
            expectEqual(doses.count, 14, "\(zone.identifier) from \(from)")
            expectEqual(Set(doses.map(\.key)).count, 14, "each dose has its own key")
            let local = doses.map { Calendar.current.dateComponents(in: zone, from: $0.due).hour! }
            #expect(local.allSatisfy { $0 == 8 || $0 == 20 }, "always at 08:00 and 20:00 on the wall clock")
        }
    }

    // MARK: The calendar

    @Test func leapDaysAreRealDaysAndOnlyInLeapYears() throws {
        try expectEqual(LocalDate("2028-02-29").adding(days: 1), Self.date("2028-03-01"))
        #expect(throws: HearthError.self) { try LocalDate("2027-02-29") }
        #expect(throws: HearthError.self) { try LocalDate("2026-13-01") }
        try expectEqual(LocalDate("2000-02-29").weekday, 2, "a Tuesday")
        let everyOtherDay = DoseSchedule(medicationId: Self.medication, pattern: .everyNDays(interval: 2, times: [Self.time("09:00")]),
                                         amount: 1, startDate: Self.date("2028-02-25"))
        let days = everyOtherDay.doses(from: Self.utc("2028-02-25T00:00:00Z"), to: Self.utc("2028-03-06T00:00:00Z"), in: Self.warsaw)
            .map(\.date.description)
        expectEqual(days, ["2028-02-25", "2028-02-27", "2028-02-29", "2028-03-02", "2028-03-04"])
        #expect(Self.daily(["09:00"]).doses(from: Self.utc("2028-02-01T00:00:00Z"), to: Self.utc("2028-03-01T00:00:00Z"),
                                            in: Self.warsaw).count == 29)
    }

    @Test func weekdaysCyclesHoursAndTapering() {
        let mondayWednesdayFriday = DoseSchedule(medicationId: Self.medication,
                                                 pattern: .weekly(times: [Self.time("07:30")], weekdays: [1, 3, 5]),
                                                 amount: 1, startDate: Self.date("2026-06-01"))
        let week = mondayWednesdayFriday.doses(from: Self.utc("2026-06-01T00:00:00Z"), to: Self.utc("2026-06-08T00:00:00Z"), in: Self.warsaw)
        expectEqual(week.map(\.date.description), ["2026-06-01", "2026-06-03", "2026-06-05"])

        let threeOnTwoOff = DoseSchedule(medicationId: Self.medication, pattern: .cyclic(daysOn: 3, daysOff: 2, times: [Self.time("08:00")]),
                                         amount: 1, startDate: Self.date("2026-06-01"))
        #expect((0..<10).map { threeOnTwoOff.times(on: Self.date("2026-06-01").adding(days: $0)).count }
                == [1, 1, 1, 0, 0, 1, 1, 1, 0, 0])

        let everyFourHours = DoseSchedule(medicationId: Self.medication,
                                          pattern: .everyNHours(interval: 4, from: Self.time("08:00"), until: Self.time("22:00")),
                                          amount: 1, startDate: Self.date("2026-06-01"))
        expectEqual(everyFourHours.times(on: Self.date("2026-06-02")).map(\.description), ["08:00", "12:00", "16:00", "20:00"])
        expectEqual(everyFourHours.dosesPerDay, 4)

        // Tapering: 2 tablets until the 10th, then 1 from the 11th.
        let before = DoseSchedule(medicationId: Self.medication, pattern: .weekly(times: [Self.time("08:00")], weekdays: Set(1...7)),
                                  amount: 2, startDate: Self.date("2026-06-01"), endDate: Self.date("2026-06-10"))
        let after = DoseSchedule(medicationId: Self.medication, pattern: .weekly(times: [Self.time("08:00")], weekdays: Set(1...7)),
                                 amount: 1, startDate: Self.date("2026-06-11"))
        let june = [before, after].flatMap { $0.doses(from: Self.utc("2026-06-01T00:00:00Z"), to: Self.utc("2026-07-01T00:00:00Z"), in: Self.warsaw) }
        expectEqual(june.count, 30)
        #expect(june.filter { $0.amount == 2 }.count == 10)
    }

    @Test func dosesFallIntoTheDaysParts() {
        #expect(["05:00", "10:59", "11:00", "14:59", "15:00", "20:59", "21:00", "04:59"].map { DoseSlot(Self.time($0)) }
                == [.morning, .morning, .midday, .midday, .evening, .evening, .night, .night])
    }

    // MARK: What people get wrong

    @Test(arguments: [
        (DoseSchedule.Pattern.weekly(times: [], weekdays: [1]), 1.0, "times"),
        (.weekly(times: [try! LocalTime("08:00"), try! LocalTime("08:00")], weekdays: [1]), 1.0, "times"),
        (.weekly(times: [try! LocalTime("08:00")], weekdays: []), 1.0, "weekdays"),
        (.weekly(times: [try! LocalTime("08:00")], weekdays: [8]), 1.0, "weekdays"),
        (.everyNDays(interval: 0, times: [try! LocalTime("08:00")]), 1.0, "interval"),
        (.cyclic(daysOn: 21, daysOff: 0, times: [try! LocalTime("08:00")]), 1.0, "daysOff"),
        (.everyNHours(interval: 4, from: try! LocalTime("20:00"), until: try! LocalTime("08:00")), 1.0, "until"),
        (.asNeeded(minimumIntervalMinutes: 0, dailyMaximum: nil), 1.0, "minimumIntervalMinutes"),
        (.weekly(times: [try! LocalTime("08:00")], weekdays: [1]), 0.0, "amount"),
        (.weekly(times: [try! LocalTime("08:00")], weekdays: [1]), -1.0, "amount"),
    ] as [(DoseSchedule.Pattern, Double, String)])
    func impossibleSchedulesAreRefusedNamingTheField(pattern: DoseSchedule.Pattern, amount: Double, field: String) {
        let schedule = DoseSchedule(medicationId: Self.medication, pattern: pattern, amount: amount, startDate: Self.date("2026-01-01"))
        #expect {
            try schedule.validated()
        } throws: { error in
            guard case HearthError.invalid(let fields) = error else { return false }
            return fields[field] != nil
        }
    }

    @Test func timesAndDatesAreReadStrictly() {
        for bad in ["25:00", "8", "08:60", "24:00", "0800", "08:0", " 08:00", "٠٨:٠٠"] {
            #expect(throws: HearthError.self, "\(bad)") { try LocalTime(bad) }
        }
        #expect(throws: HearthError.self) {
            try DoseSchedule(medicationId: Self.medication, pattern: .weekly(times: [Self.time("08:00")], weekdays: [1]),
                             amount: 1, startDate: Self.date("2026-05-02"), endDate: Self.date("2026-05-01")).validated()
        }
    }

    // MARK: As needed, and stock

    @Test func anAsNeededDoseKeepsItsIntervalAndDailyMaximum() {
        let morning = Self.utc("2026-06-01T06:00:00Z")  // 08:00 in Warsaw
        func check(_ previous: [Date], _ now: Date) -> AsNeededRule.Verdict {
            AsNeededRule.check(minimumIntervalMinutes: 240, dailyMaximum: 3, takenAt: previous, at: now, in: Self.warsaw)
        }
        expectEqual(check([], morning), .allowed)
        expectEqual(check([morning], morning.addingTimeInterval(3 * 3600)), .tooSoon(nextAllowed: morning.addingTimeInterval(4 * 3600)))
        expectEqual(check([morning], morning.addingTimeInterval(4 * 3600)), .allowed)
        let three = [morning, morning.addingTimeInterval(4 * 3600), morning.addingTimeInterval(8 * 3600)]
        expectEqual(check(three, morning.addingTimeInterval(13 * 3600)), .dailyMaximumReached(maximum: 3))
        // After midnight in Warsaw (22:00 UTC) a new day begins.
        expectEqual(check(three, Self.utc("2026-06-01T22:30:00Z")), .allowed)
    }

    @Test func stockLastsAsLongAsTheSchedulesUseIt() {
        let twiceADay = Self.daily(["08:00", "20:00"])
        expectEqual(StockForecast.daysRemaining(stock: 28, schedules: [twiceADay]), 14)
        var halfTablets = twiceADay
        halfTablets.amount = 0.5
        expectEqual(StockForecast.daysRemaining(stock: 28, schedules: [halfTablets]), 28)
        let asNeeded = DoseSchedule(medicationId: Self.medication, pattern: .asNeeded(minimumIntervalMinutes: nil, dailyMaximum: 4),
                                    amount: 1, startDate: Self.date("2026-01-01"))
        #expect(StockForecast.daysRemaining(stock: 10, schedules: [asNeeded]) == nil)
    }
}

@Suite struct SchedulePatternJSONTests {
    /// Responses build a pattern's JSON directly; the API reads it back with
    /// Codable, so the two must always say the same thing.
    @Test func directJSONMatchesTheCodableShapeForEveryKind() throws {
        let patterns: [DoseSchedule.Pattern] = [
            .weekly(times: [try LocalTime("20:00"), try LocalTime("08:00")], weekdays: [7, 1, 3]),
            .everyNDays(interval: 3, times: [try LocalTime("09:30")]),
            .cyclic(daysOn: 21, daysOff: 7, times: [try LocalTime("07:00")]),
            .everyNHours(interval: 6, from: try LocalTime("06:00"), until: try LocalTime("22:00")),
            .asNeeded(minimumIntervalMinutes: 240, dailyMaximum: 4),
            .asNeeded(minimumIntervalMinutes: nil, dailyMaximum: nil),
        ]
        expectEqual(Set(patterns.map(\.kind)), Set(DoseSchedule.Pattern.Kind.allCases))
        for pattern in patterns {
            let viaCodable = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(pattern))
            expectEqual(JSONValue.object(pattern.json), viaCodable)
            let readBack = try JSONDecoder().decode(DoseSchedule.Pattern.self, from: Data(JSONValue.object(pattern.json).jsonText().utf8))
            expectEqual(readBack.json, pattern.json)
        }
    }
}
