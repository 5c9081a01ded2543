import Foundation

/// A moment as the API writes it: ISO-8601 in UTC with milliseconds,
/// `2026-03-29T08:00:00.000Z`. Computed with integer arithmetic on the
/// proleptic Gregorian calendar (`LocalDate`'s day numbers), because a
/// medication list carries a dozen times per row and the general
/// `ISO8601FormatStyle` goes through a calendar object for each one.
public enum ISOTime {
    public static func text(_ date: Date) -> String {
        // Nearest, not down: a stored millisecond read back as seconds is
        // often a hair under its true value.
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let (days, millisecondOfDay) = milliseconds.floorDividedBy(86_400_000)
        let calendarDay = LocalDate(dayNumber: Int(days))
        if calendarDay.year < 0 || calendarDay.year > 9999 {
            // Outside what four digits hold; the general formatter knows the rules.
            return date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt))
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        calendarDay.write(into: &bytes)
        bytes.append(UInt8(ascii: "T"))
        let ms = Int(millisecondOfDay)
        ASCIIDigits.append(ms / 3_600_000, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        ASCIIDigits.append(ms / 60_000 % 60, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        ASCIIDigits.append(ms / 1000 % 60, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "."))
        ASCIIDigits.append(ms % 1000, width: 3, to: &bytes)
        bytes.append(UInt8(ascii: "Z"))
        return String(decoding: bytes, as: UTF8.self)
    }

    static let fractionalStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)
    static let wholeSecondStyle = Date.ISO8601FormatStyle(timeZone: .gmt)

    /// Reads an ISO-8601 time as clients send it: with or without fractional
    /// seconds, in UTC (`Z`) or with an offset. The result is the very `Date`
    /// a stored millisecond reads back as: Foundation's parse can land one
    /// binary digit away from it, and a device's copy of a time must compare
    /// equal to the hub's.
    /// Every field must be a real one: Foundation's parse rolls `T10:99`
    /// over to 11:39 and `2026-02-31` to 3 March, which would record a dose
    /// at a moment nobody wrote (`isReal`).
    public static func date(from text: String) -> Date? {
        guard isReal(text) else { return nil }
        for style in [fractionalStyle, wholeSecondStyle] {
            if let date = try? style.parse(text) { return Date(millisecondsSince1970: date.millisecondsSince1970) }
        }
        return nil
    }
}

extension ISOTime {
    /// `YYYY-MM-DDThh:mm:ss[.fff…](Z|±hh:mm)` with a month of the year, a
    /// day of that month, an hour of the day and minutes and seconds of the
    /// hour (and an offset of real hours and minutes); nothing before or after.
    static func isReal(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        func number(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[start..<(start + count)] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        func mark(_ index: Int, _ character: Unicode.Scalar) -> Bool { index < bytes.count && bytes[index] == UInt8(ascii: character) }
        guard let year = number(0, 4), mark(4, "-"), let month = number(5, 2), mark(7, "-"), let day = number(8, 2),
              mark(10, "T") || mark(10, "t"), let hour = number(11, 2), mark(13, ":"), let minute = number(14, 2),
              mark(16, ":"), let second = number(17, 2)
        else { return false }
        var index = 19
        if mark(index, ".") {
            index += 1
            let digits = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
            guard index > digits else { return false }
        }
        if mark(index, "Z") || mark(index, "z") {
            index += 1
        } else if mark(index, "+") || mark(index, "-") {
            guard let offsetHours = number(index + 1, 2), mark(index + 3, ":"), let offsetMinutes = number(index + 4, 2),
                  offsetHours <= 23, offsetMinutes <= 59 else { return false }
            index += 6
        } else {
            return false
        }
        guard index == bytes.count, (1...12).contains(month), hour <= 23, minute <= 59, second <= 59 else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        return (1...days).contains(day)
    }
}

extension Int64 {
    /// Quotient and remainder rounded toward minus infinity, so moments
    /// before 1970 fall on the right day.
    func floorDividedBy(_ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let quotient = self / divisor
        let remainder = self % divisor
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }
}
