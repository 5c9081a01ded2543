import HearthCore

/// How loudly a phone rings (ntfy's 1 to 5): an SOS at the top, a missed
/// dose above a due one, stock and the hub's clock quietly.
public enum AlertPriority {
    public static func of(_ alert: CareAlert) -> Int {
        switch alert.kind {
        // Once someone is on the way, or she cancelled it, the others are
        // told without an alarm.
        case .sos: alert.respondedAt == nil && !alert.isCancelledByItsSenior ? 5 : 3
        case .doseMissed: 4
        case .doseDue: 3
        case .lowStock, .clock: 2
        }
    }

    /// Tags the app shows as emoji before the title.
    public static func tags(_ alert: CareAlert) -> [String] {
        switch alert.kind {
        case .sos where alert.isCancelledByItsSenior: ["white_check_mark"]
        case .sos: alert.respondedAt == nil ? ["rotating_light"] : ["rotating_light", "car"]
        case .doseDue: ["pill"]
        case .doseMissed: ["warning", "pill"]
        case .lowStock: ["package"]
        case .clock: ["clock3"]
        }
    }
}
