import Foundation

/// Which old messages an alert app asks for (`since=`): none, everything
/// the hub keeps, everything after a message it has, or since a moment.
public enum NtfySince: Sendable, Equatable {
    case none
    case all
    case after(seq: Int64)
    case time(Date)

    /// What `all` means: the alerts of the last day, so a phone switched
    /// off overnight gets the night's alerts, not the household's history.
    public static let kept: TimeInterval = 86_400

    /// The `since` parameter, or nil when it is none of ntfy's forms that
    /// the hub understands: `none`, `all`, a message id, Unix seconds.
    public static func parse(_ text: String) -> NtfySince? {
        switch text {
        case "none": return NtfySince.none
        case "all": return .all
        default:
            if let seq = NtfyMessageID.seq(in: text) { return .after(seq: seq) }
            guard !text.isEmpty, text.count <= 12, text.allSatisfy({ $0.isASCII && $0.isNumber }), let seconds = Int64(text) else {
                return nil
            }
            return .time(Date(timeIntervalSince1970: TimeInterval(seconds)))
        }
    }
}

/// A message's id: `h` and the change log's seq of the alert's change, so
/// an app that reconnects with its last id gets exactly what followed it.
/// A test message adds a random tail (`h120-tAbc123`): the app keeps each
/// id once, and a test is not a change.
public enum NtfyMessageID {
    public static func of(seq: Int64) -> String { "h\(seq)" }

    public static func test(after seq: Int64) -> String {
        let letters = Array("abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789")
        var generator = SystemRandomNumberGenerator()
        return "h\(seq)-t" + String((0..<10).map { _ in letters[Int.random(in: 0..<letters.count, using: &generator)] })
    }

    /// The seq an id names, or nil when it is not one of the hub's ids.
    public static func seq(in id: String) -> Int64? {
        guard id.first == "h" else { return nil }
        let rest = id.dropFirst()
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        let tail = rest.dropFirst(digits.count)
        guard !digits.isEmpty, digits.count <= 18, let seq = Int64(digits) else { return nil }
        guard tail.isEmpty || (tail.hasPrefix("-t") && tail.count <= 20 && tail.dropFirst(2).allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) })
        else { return nil }
        return seq
    }
}
