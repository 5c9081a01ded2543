/// Reads `--ttl` values such as `10m`, `90s` or `1h`.
public enum PairingDuration {
    public static func parse(_ text: String) -> Duration? {
        guard let unit = text.last, let number = Int(text.dropLast()), number > 0 else { return nil }
        let seconds: Int
        switch unit {
        case "s": seconds = number
        case "m": seconds = number * 60
        case "h": seconds = number * 3600
        default: return nil
        }
        guard (30...86_400).contains(seconds) else { return nil }
        return .seconds(seconds)
    }
}
