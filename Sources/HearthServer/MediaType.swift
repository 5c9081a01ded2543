/// The media type of a Content-Type header, without its parameters:
/// `Application/JSON; charset=utf-8` is `application/json`. Read byte by
/// byte because every request body and every response passes through it,
/// and Foundation's `trimmingCharacters` bridges through NSString each time.
enum MediaType {
    static func essence(of contentType: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for byte in contentType.utf8 {
            if byte == UInt8(ascii: ";") { break }
            bytes.append(byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte)
        }
        return String(decoding: HTTPText.trimmed(bytes[...]), as: UTF8.self)
    }

    static func isJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let type = essence(of: contentType)
        return type == "application/json" || (type.hasPrefix("application/") && type.hasSuffix("+json"))
    }
}

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
