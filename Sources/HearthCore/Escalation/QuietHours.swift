import Foundation

/// Quiet hours are the household's: the hub's voice keeps doses to itself
/// in them, and the escalation ladder holds a dose's texts until they end;
/// an SOS is never hushed.
/// A stretch of the night, in the household's wall-clock time: `22:00-07:00`.
public struct QuietHours: Sendable, Equatable {
    public var start: LocalTime
    public var end: LocalTime

    /// Reads `HH:MM-HH:MM`; nil for anything else or an empty stretch.
    public init?(_ text: String) {
        let parts = text.split(separator: "-").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let start = try? LocalTime(parts[0]), let end = try? LocalTime(parts[1]), start != end else {
            return nil
        }
        self.start = start
        self.end = end
    }

    /// Whether `date` falls inside, in `zone`; a stretch may cross midnight.
    public func contains(_ date: Date, in zone: TimeZone) -> Bool {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        let minute = (parts.hour ?? 0) * 60 + (parts.minute ?? 0)
        let (from, to) = (start.minutesSinceMidnight, end.minutesSinceMidnight)
        return from < to ? (from..<to).contains(minute) : minute >= from || minute < to
    }

    /// When the stretch that holds `date` ends (`date` itself when it is
    /// not inside one): where a dose's message waits until.
    public func end(ofStretchHolding date: Date, in zone: TimeZone) -> Date {
        guard contains(date, in: zone) else { return date }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        // The next time the wall clock reads the end, so a night when the
        // clocks change still ends at 07:00 as the household reads it.
        return calendar.nextDate(after: date, matching: DateComponents(hour: end.hour, minute: end.minute, second: 0),
                                 matchingPolicy: .nextTime) ?? date
    }

    public var description: String { "\(start)-\(end)" }
}
