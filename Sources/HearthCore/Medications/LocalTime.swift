import Foundation

/// A time of day on the household's wall clock, e.g. 08:00.
public struct LocalTime: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public let hour: Int
    public let minute: Int

    public init(hour: Int, minute: Int) throws(HearthError) {
        guard (0...23).contains(hour), (0...59).contains(minute) else {
            throw .invalid(fields: ["time": "must be a time of day from 00:00 to 23:59"])
        }
        self.hour = hour
        self.minute = minute
    }

    /// Reads `HH:MM`, as people and the API write it.
    public init(_ text: String) throws(HearthError) {
        // H:MM or HH:MM, read byte by byte (every stored schedule is read back through here).
        var text = text
        let parsed: (hour: Int, minute: Int)? = text.withUTF8 { bytes in
            let colon = bytes.count - 3
            guard colon == 1 || colon == 2, bytes[colon] == UInt8(ascii: ":"),
                  let hour = ASCIIDigits.read(bytes, 0..<colon), let minute = ASCIIDigits.read(bytes, colon + 1..<bytes.count)
            else { return nil }
            return (hour, minute)
        }
        guard let parsed else { throw .invalid(fields: ["time": "must be written as HH:MM, e.g. 08:00"]) }
        try self.init(hour: parsed.hour, minute: parsed.minute)
    }

    public var minutesSinceMidnight: Int { hour * 60 + minute }
    public var description: String {
        // By hand rather than String(format:), which goes through C varargs for every time in a response.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(5)
        ASCIIDigits.append(hour, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        ASCIIDigits.append(minute, width: 2, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    public static func < (lhs: LocalTime, rhs: LocalTime) -> Bool { lhs.minutesSinceMidnight < rhs.minutesSinceMidnight }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        try self.init(text)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// A day on the household's calendar, e.g. 2028-02-29.
public struct LocalDate: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// Days since 1970-01-01 (proleptic Gregorian), for day arithmetic.
    public let dayNumber: Int

    public init(year: Int, month: Int, day: Int) throws(HearthError) {
        guard (1900...2200).contains(year), (1...12).contains(month), (1...Self.days(inMonth: month, year: year)).contains(day) else {
            throw .invalid(fields: ["date": "must be a real calendar date, e.g. 2026-03-29"])
        }
        self.year = year
        self.month = month
        self.day = day
        dayNumber = Self.dayNumber(year: year, month: month, day: day)
    }

    /// Reads `YYYY-MM-DD`.
    public init(_ text: String) throws(HearthError) {
        // YYYY-MM-DD, read byte by byte (every stored schedule and planned dose is read back through here).
        var text = text
        let parsed: (year: Int, month: Int, day: Int)? = text.withUTF8 { bytes in
            guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
                  let year = ASCIIDigits.read(bytes, 0..<4), let month = ASCIIDigits.read(bytes, 5..<7),
                  let day = ASCIIDigits.read(bytes, 8..<10)
            else { return nil }
            return (year, month, day)
        }
        guard let parsed else { throw .invalid(fields: ["date": "must be written as YYYY-MM-DD"]) }
        try self.init(year: parsed.year, month: parsed.month, day: parsed.day)
    }

    public init(dayNumber: Int) {
        // Civil-from-days (H. Hinnant's algorithm), exact for the Gregorian calendar.
        let z = dayNumber + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        self.dayNumber = dayNumber
    }

    /// The date on the household's calendar at an instant.
    public init(_ instant: Date, in timeZone: TimeZone) {
        let local = Int((instant.timeIntervalSince1970 + Double(timeZone.secondsFromGMT(for: instant))).rounded(.down))
        self.init(dayNumber: Int((Double(local) / 86_400).rounded(.down)))
    }

    public func adding(days: Int) -> LocalDate { LocalDate(dayNumber: dayNumber + days) }

    /// 1 = Monday … 7 = Sunday (ISO 8601).
    public var weekday: Int { ((dayNumber % 7) + 7 + 3) % 7 + 1 }

    public var description: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(10)
        write(into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `YYYY-MM-DD` (for a year of four digits).
    func write(into bytes: inout [UInt8]) {
        ASCIIDigits.append(year, width: 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        ASCIIDigits.append(month, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        ASCIIDigits.append(day, width: 2, to: &bytes)
    }

    public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool { lhs.dayNumber < rhs.dayNumber }

    static func days(inMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    static func dayNumber(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    public init(from decoder: any Decoder) throws {
        try self.init(try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
