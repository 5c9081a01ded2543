import Foundation
import HearthCore

/// Which old messages an alert app asks for (`since=`): none, everything
/// the hub keeps, everything after a message it has, or since a moment.
public enum NtfySince: Sendable, Equatable {
    case none
    case all
    /// After the message with this seq; `at` is when that change was
    /// written, when the id says (a hub restored from an older backup
    /// writes the same seq again later, so the id alone could name the
    /// wrong change).
    case after(seq: Int64, at: Date?)
    case time(Date)

    /// How far back any replay goes: the alerts of the last day, so a phone
    /// switched off overnight gets the night's alerts, not the household's
    /// history of SOS long answered.
    public static let kept: TimeInterval = 86_400

    /// The `since` parameter, or nil when it is none of ntfy's forms that
    /// the hub understands: `none`, `all`, a message id, Unix seconds.
    public static func parse(_ text: String) -> NtfySince? {
        switch text {
        case "none": return NtfySince.none
        case "all": return .all
        default:
            if let id = NtfyMessageID(text) { return .after(seq: id.seq, at: id.written) }
            guard !text.isEmpty, text.count <= 12, text.allSatisfy({ $0.isASCII && $0.isNumber }), let seconds = Int64(text) else {
                return nil
            }
            return .time(Date(timeIntervalSince1970: TimeInterval(seconds)))
        }
    }
}

/// A message's id: `h`, the change log's seq of the alert's change, and
/// when that change was written (`h120-m1kq2x3ab`, milliseconds in base
/// 36), so an app that reconnects with its last id gets exactly what
/// followed it. The app keeps every id it was sent and drops a message
/// whose id it has seen; the time keeps ids unique after a restore from an
/// older backup makes the log count up again from an earlier seq.
/// A test message has a random tail instead (`h120-tAbc123`): a test is
/// not a change. Ids of older hubs (`h120`) are still read.
public struct NtfyMessageID: Sendable, Equatable {
    public var seq: Int64
    public var written: Date?

    public static func of(seq: Int64, at time: Date) -> String {
        "h\(seq)-m" + String(time.millisecondsSince1970, radix: 36)
    }

    public static func test(after seq: Int64) -> String {
        let letters = Array("abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789")
        var generator = SystemRandomNumberGenerator()
        return "h\(seq)-t" + String((0..<10).map { _ in letters[Int.random(in: 0..<letters.count, using: &generator)] })
    }

    /// Reads one of the hub's ids; nil for anything else.
    public init?(_ id: String) {
        guard id.first == "h" else { return nil }
        let rest = id.dropFirst()
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        let tail = rest.dropFirst(digits.count)
        guard !digits.isEmpty, digits.count <= 18, let seq = Int64(digits) else { return nil }
        self.seq = seq
        let mark = tail.dropFirst(2)
        if tail.isEmpty {
            written = nil
        } else if tail.hasPrefix("-m"), (1...12).contains(mark.count), mark.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber) }),
                  let milliseconds = Int64(mark, radix: 36) {
            written = Date(millisecondsSince1970: milliseconds)
        } else if tail.hasPrefix("-t"), tail.count <= 20, mark.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) {
            written = nil
        } else {
            return nil
        }
    }
}
