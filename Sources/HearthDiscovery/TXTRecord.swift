/// The text record of a DNS-SD service (RFC 6763 §6): `key=value` strings,
/// each preceded by its length in one byte. Encoded here rather than with
/// `TXTRecordCreate` so the bytes can be checked without a responder.
public struct TXTRecord: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public var key: String
        public var value: String

        public init(_ key: String, _ value: String) {
            self.key = key
            self.value = value
        }
    }

    public enum Problem: Error, Equatable, CustomStringConvertible {
        case badKey(String)
        case tooLong(String)

        public var description: String {
            switch self {
            case .badKey(let key): return "TXT key \"\(key)\" must be 1 to 9 printable ASCII characters without \"=\""
            case .tooLong(let key): return "TXT entry \"\(key)\" is longer than 255 bytes"
            }
        }
    }

    public var entries: [Entry]

    public init(_ entries: [Entry]) {
        self.entries = entries
    }

    /// The wire form. RFC 6763 §6.4 asks for keys of at most 9 characters
    /// and forbids `=` in them; a longer entry cannot be encoded at all.
    public func encoded() throws(Problem) -> [UInt8] {
        var bytes: [UInt8] = []
        for entry in entries {
            let key = Array(entry.key.utf8)
            guard (1...9).contains(key.count), key.allSatisfy({ (0x20...0x7E).contains($0) && $0 != UInt8(ascii: "=") }) else {
                throw .badKey(entry.key)
            }
            let item = key + [UInt8(ascii: "=")] + Array(entry.value.utf8)
            guard item.count <= 255 else { throw .tooLong(entry.key) }
            bytes.append(UInt8(item.count))
            bytes += item
        }
        // An empty record is one empty string (RFC 6763 §6.1), never zero bytes.
        return bytes.isEmpty ? [0] : bytes
    }

    /// Reads a record as another host published it. Malformed lengths end
    /// the reading instead of failing: what came before is still useful.
    public static func decode(_ bytes: [UInt8]) -> TXTRecord {
        var entries: [Entry] = []
        var index = 0
        while index < bytes.count {
            let length = Int(bytes[index])
            index += 1
            guard length > 0 else { continue }
            guard index + length <= bytes.count else { break }
            let item = bytes[index..<index + length]
            index += length
            if let equals = item.firstIndex(of: UInt8(ascii: "=")) {
                entries.append(Entry(String(decoding: item[..<equals], as: UTF8.self),
                                     String(decoding: item[(equals + 1)...], as: UTF8.self)))
            } else {
                entries.append(Entry(String(decoding: item, as: UTF8.self), ""))
            }
        }
        return TXTRecord(entries)
    }

    /// The value of the first entry with this key (keys are case-insensitive).
    public subscript(key: String) -> String? {
        entries.first { $0.key.lowercased() == key.lowercased() }?.value
    }
}
