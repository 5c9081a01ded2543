import Foundation
import HearthCore
import HearthTestSupport
import Testing

/// Days and times of day are written and read byte by byte (every stored
/// schedule is read back through them); they must keep their written form
/// and refuse every other.
@Suite struct LocalDateTextTests {
    @Test func everyDayOfTwoCenturiesRoundTrips() throws {
        let first = try LocalDate("1900-01-01")
        let style = Date.ISO8601FormatStyle(timeZone: .gmt).year().month().day()
        for offset in stride(from: 0, to: 109_500, by: 7) {
            let day = first.adding(days: offset)
            try expectEqual(LocalDate(day.description), day)
            // The calendar agrees with Foundation's.
            let noon = Date(timeIntervalSince1970: Double(day.dayNumber) * 86_400 + 43_200)
            expectEqual(day.description, noon.formatted(style), "\(day)")
        }
    }

    @Test(arguments: ["2026-3-29", "2026-03-29 ", " 2026-03-29", "20260329", "2026/03/29", "2026-03-2x", "+026-03-29",
                      "2026-03-٢٩", "2026-02-30", "2026-13-01", "", "2026-03-29T08:00"])
    func refusesWhatIsNotADay(text: String) {
        #expect(throws: HearthError.self) { try LocalDate(text) }
    }

    @Test func timesOfDayReadWithOneOrTwoHourDigitsAndWriteWithTwo() throws {
        for minutes in 0..<1440 {
            let time = try LocalTime(hour: minutes / 60, minute: minutes % 60)
            try expectEqual(LocalTime(time.description), time)
            expectEqual(time.description.count, 5)
        }
        try expectEqual(LocalTime("8:05"), LocalTime(hour: 8, minute: 5))
        try expectEqual(LocalTime("23:59").description, "23:59")
    }

    @Test(arguments: ["8:5", "08:5", "008:00", "08:000", "08-00", "0800", ":00", "08:", "24:00", "12:60", "-1:00", "08:00:00",
                      " 08:00", "08:00 ", "٠٨:٠٠", ""])
    func refusesWhatIsNotATimeOfDay(text: String) {
        #expect(throws: HearthError.self) { try LocalTime(text) }
    }
}
