import Foundation

/// Why an as-needed dose was refused, in fields a device can put into its
/// own words (the web UI speaks Polish too) and in an English sentence for
/// the CLI and logs.
public struct AsNeededRefusal: Sendable, Equatable, CustomStringConvertible {
    public enum Rule: String, Sendable {
        case minimumInterval, dailyMaximum
    }

    public var rule: Rule
    public var medicationName: String
    /// For `minimumInterval`: when the next dose is allowed, and that moment
    /// on the household's wall clock (HH:MM).
    public var nextAllowedAt: Date?
    public var nextAllowedTime: String?
    /// For `dailyMaximum`: how many doses a day are allowed.
    public var dailyMaximum: Int?

    public static func tooSoon(_ medicationName: String, nextAllowedAt: Date, localTime: String) -> AsNeededRefusal {
        AsNeededRefusal(rule: .minimumInterval, medicationName: medicationName, nextAllowedAt: nextAllowedAt, nextAllowedTime: localTime)
    }

    public static func dailyMaximumReached(_ medicationName: String, maximum: Int) -> AsNeededRefusal {
        AsNeededRefusal(rule: .dailyMaximum, medicationName: medicationName, dailyMaximum: maximum)
    }

    public var description: String {
        switch rule {
        case .minimumInterval:
            return "Too soon: the next dose of \(medicationName) is allowed from \(nextAllowedTime ?? "later")"
        case .dailyMaximum:
            let count = dailyMaximum ?? 0
            return "\(medicationName) has already been taken \(count == 1 ? "once" : "\(count) times") today, the most allowed"
        }
    }
}
