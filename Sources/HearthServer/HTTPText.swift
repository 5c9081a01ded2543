/// Optional whitespace as HTTP defines it (RFC 9110: spaces and tabs).
enum HTTPText {
    static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else {
            return []
        }
        return bytes[first...last]
    }

    static func trimmed(_ text: Substring) -> String {
        String(decoding: trimmed(ArraySlice(text.utf8)), as: UTF8.self)
    }
}
