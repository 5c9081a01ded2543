import Foundation
import HearthCore
import Hummingbird

/// Reading the query strings and path IDs of the care routes. Each failure
/// names the parameter, so a device learns which one it got wrong.
enum CareQuery {
    /// `?name=1` or `?name=true` sets it; `0`, `false` or absent leaves it
    /// unset; anything else is 422 naming it (the API document's `Flag`),
    /// not quietly read as unset.
    static func flag(_ name: String, in request: Request) throws -> Bool {
        switch request.uri.queryParameters.get(name) {
        case nil, "0", "false": return false
        case "1", "true": return true
        default: throw HearthError.invalid(fields: [name: "must be 1, true, 0 or false"])
        }
    }

    /// The ID in the path, or 404: a malformed ID names nothing that exists.
    static func id(_ name: String = "id", in context: HearthRequestContext, what: String) throws -> UUID {
        guard let id = context.parameters.get(name).flatMap(UUID.init(text:)) else {
            throw HearthError.notFound(what: what)
        }
        return id
    }

    /// A calendar day given as `YYYY-MM-DD`.
    static func localDate(_ text: String, field: String) throws -> LocalDate {
        do {
            return try LocalDate(text)
        } catch {
            throw HearthError.invalid(fields: [field: "must be a date written as YYYY-MM-DD, e.g. 2026-03-29"])
        }
    }

    /// `?name=` as a calendar day, or `fallback` when absent.
    static func localDate(_ name: String, in request: Request, default fallback: LocalDate) throws -> LocalDate {
        guard let text = request.uri.queryParameters.get(name) else { return fallback }
        return try localDate(text, field: name)
    }

    /// `?name=` as an instant: an ISO-8601 time, or a `YYYY-MM-DD` day read
    /// in the household's time zone — its first moment, or with `endOfDay`
    /// the first moment of the next day, so `to=2026-03-29` includes that day.
    static func instant(_ name: String, in request: Request, zone: TimeZone, endOfDay: Bool = false) throws -> Date? {
        guard let text = request.uri.queryParameters.get(name) else { return nil }
        if let date = HearthJSON.date(from: text) { return date }
        guard let day = try? LocalDate(text) else {
            throw HearthError.invalid(fields: [name: "must be an ISO-8601 time or a date written as YYYY-MM-DD"])
        }
        return WallClock.instant(endOfDay ? day.adding(days: 1) : day, midnight, in: zone)
    }

    /// `?name=` as a whole number in `range`, or `fallback` when absent.
    static func number(_ name: String, in request: Request, range: ClosedRange<Int>, default fallback: Int) throws -> Int {
        guard let text = request.uri.queryParameters.get(name) else { return fallback }
        guard let value = Int(text), range.contains(value) else {
            throw HearthError.invalid(fields: [name: "must be a whole number from \(range.lowerBound) to \(range.upperBound)"])
        }
        return value
    }

    static let midnight: LocalTime = {
        // 00:00 is always a valid time of day.
        guard let time = try? LocalTime(hour: 0, minute: 0) else { preconditionFailure("00:00 is a time of day") }
        return time
    }()
}
