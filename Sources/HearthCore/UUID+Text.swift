import Foundation

extension UUID {
    /// How IDs are written in the database and the API: lowercase, hyphenated.
    ///
    /// Written by hand: Foundation's `uuidString` goes through C `snprintf`
    /// and then needs `lowercased()`, and every dose recorded writes several
    /// IDs (its own, its medication's, its person's, the change log's).
    public var text: String {
        let bytes = uuid
        return String(unsafeUninitializedCapacity: 36) { buffer in
            var index = 0
            func put(_ byte: UInt8) {
                buffer[index] = Self.hexDigits[Int(byte >> 4)]
                buffer[index + 1] = Self.hexDigits[Int(byte & 0x0F)]
                index += 2
            }
            func hyphen() {
                buffer[index] = UInt8(ascii: "-")
                index += 1
            }
            put(bytes.0); put(bytes.1); put(bytes.2); put(bytes.3); hyphen()
            put(bytes.4); put(bytes.5); hyphen()
            put(bytes.6); put(bytes.7); hyphen()
            put(bytes.8); put(bytes.9); hyphen()
            put(bytes.10); put(bytes.11); put(bytes.12); put(bytes.13); put(bytes.14); put(bytes.15)
            return index
        }
    }

    /// Reads an ID in the form `text` writes, in either case, as
    /// `UUID(uuidString:)` does (which parses with C `sscanf`); nil for
    /// anything else.
    public init?(text: String) {
        var text = text
        let parsed: uuid_t? = text.withUTF8 { utf8 -> uuid_t? in
            guard utf8.count == 36 else { return nil }
            var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            let complete = withUnsafeMutableBytes(of: &value) { bytes -> Bool in
                var position = 0
                for byteIndex in 0..<16 {
                    if position == 8 || position == 13 || position == 18 || position == 23 {
                        guard utf8[position] == UInt8(ascii: "-") else { return false }
                        position += 1
                    }
                    guard let high = Self.nibble(utf8[position]), let low = Self.nibble(utf8[position + 1]) else { return false }
                    bytes[byteIndex] = high << 4 | low
                    position += 2
                }
                return true
            }
            return complete ? value : nil
        }
        guard let parsed else { return nil }
        self.init(uuid: parsed)
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    private static func nibble(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
