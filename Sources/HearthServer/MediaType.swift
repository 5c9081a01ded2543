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
