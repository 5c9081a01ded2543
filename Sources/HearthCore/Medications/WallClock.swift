import Foundation

/// Turns the household's wall-clock times into instants, so that every
/// scheduled dose happens exactly once, daylight-saving changes included.
public enum WallClock {
    /// The instant of `time` on `date` in `timeZone`. A time that a
    /// spring-forward change skips happens as far after the change as it was
    /// meant to be after the hour before it (02:30 becomes 03:30); a time
    /// that a fall-back change repeats happens at its first occurrence.
    public static func instant(_ date: LocalDate, _ time: LocalTime, in timeZone: TimeZone) -> Date {
        let wall = Double(date.dayNumber * 86_400 + time.minutesSinceMidnight * 60)
        // The offsets in force a day either side; a change lies between them.
        let before = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: wall - 86_400))
        let after = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: wall + 86_400))
        let valid = Set([before, after]).compactMap { offset -> Date? in
            let instant = Date(timeIntervalSince1970: wall - Double(offset))
            return timeZone.secondsFromGMT(for: instant) == offset ? instant : nil
        }
        if let first = valid.min() { return first }
        // Skipped by the change: read with the offset from before it.
        return Date(timeIntervalSince1970: wall - Double(before))
    }
}
