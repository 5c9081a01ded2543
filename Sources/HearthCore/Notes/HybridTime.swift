import Foundation

/// A hybrid logical clock reading (Kulkarni et al., "Logical Physical Clocks
/// and Consistent Snapshots in Globally Distributed Databases", 2014): the
/// physical time in milliseconds, a counter for events within one
/// millisecond, and the device that made it, which breaks ties.
///
/// Sync orders the writes of devices by these readings (last writer wins,
/// field by field), never by a device's wall clock alone: a device that has
/// heard of a change always stamps its next edit later than it.
///
/// Written as `2026-11-23T08:00:00.000Z-0000-<device>`: fixed-width, so the
/// text sorts exactly as the readings do and SQLite can compare it.
public struct HybridTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Milliseconds since 1970 (UTC), within years 1970–9999 so the text keeps its width.
    public var milliseconds: Int64
    /// 0...0xFFFF: the 4 hex digits of the text.
    public var counter: Int
    /// Who stamped it: a device id in lower case, or `hub` for the hub's own writes.
    public var node: String

    public static let maximumCounter = 0xFFFF
    public static let hubNode = "hub"
    /// 9999-12-31T23:59:59.999Z, the last instant four year digits can write.
    public static let maximumMilliseconds: Int64 = 253_402_300_799_999

    public init(milliseconds: Int64, counter: Int, node: String) {
        self.milliseconds = milliseconds
        self.counter = counter
        self.node = node
    }

    public static func < (lhs: HybridTime, rhs: HybridTime) -> Bool {
        (lhs.milliseconds, lhs.counter, lhs.node) < (rhs.milliseconds, rhs.counter, rhs.node)
    }

    // MARK: Text

    public var description: String {
        let clamped = min(max(milliseconds, 0), Self.maximumMilliseconds)
        let counterText = String(counter, radix: 16)
        let padding = String(repeating: "0", count: max(0, 4 - counterText.count))
        return "\(ISOTime.text(Date(timeIntervalSince1970: Double(clamped) / 1000)))-\(padding)\(counterText)-\(node)"
    }

    /// Reads the text form; nil for anything else (other widths, upper-case
    /// hex, a node with characters outside `a-z`, `0-9` and `-`).
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        // "YYYY-MM-DDTHH:MM:SS.mmmZ" "-" "hhhh" "-" node
        guard bytes.count >= 31, bytes.count <= 24 + 6 + 64,
              bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x54, bytes[13] == 0x3A, bytes[16] == 0x3A,
              bytes[19] == 0x2E, bytes[23] == 0x5A, bytes[24] == 0x2D, bytes[29] == 0x2D,
              let year = Self.decimal(bytes[0..<4]), let month = Self.decimal(bytes[5..<7]), let day = Self.decimal(bytes[8..<10]),
              let hour = Self.decimal(bytes[11..<13]), let minute = Self.decimal(bytes[14..<16]),
              let second = Self.decimal(bytes[17..<19]), let millisecond = Self.decimal(bytes[20..<23]),
              year >= 1970, (1...12).contains(month), day >= 1, day <= LocalDate.days(inMonth: month, year: year),
              hour < 24, minute < 60, second < 60,
              let counter = Self.hex(bytes[25..<29])
        else { return nil }
        let node = bytes[30...]
        guard node.allSatisfy({ (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D }) else { return nil }
        let days = Int64(LocalDate.dayNumber(year: year, month: month, day: day))
        self.milliseconds = ((days * 24 + Int64(hour)) * 60 + Int64(minute)) * 60_000 + Int64(second) * 1000 + Int64(millisecond)
        self.counter = counter
        self.node = String(decoding: node, as: UTF8.self)
    }

    private static func decimal(_ digits: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for byte in digits {
            guard (0x30...0x39).contains(byte) else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return value
    }

    private static func hex(_ digits: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for byte in digits {
            switch byte {
            case 0x30...0x39: value = value * 16 + Int(byte - 0x30)
            case 0x61...0x66: value = value * 16 + Int(byte - 0x61 + 10)
            default: return nil
            }
        }
        return value
    }
}
