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
    public static func date(from text: String) -> Date? {
        for style in [fractionalStyle, wholeSecondStyle] {
            if let date = try? style.parse(text) { return Date(millisecondsSince1970: date.millisecondsSince1970) }
        }
        return nil
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
