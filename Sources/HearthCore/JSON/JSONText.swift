/// JSON text for `JSONValue`, written and read by hand. Every change payload
/// is written as text inside the write transaction and every care response
/// is a `JSONValue`, so Foundation's Codable round trip (type metadata and
/// dynamic casts for every field) was most of a request's time on a Pi.
/// The output is compact with sorted keys, so equal values are equal text.
public enum JSONText {
    /// Deeper nesting than any payload the hub writes; stops a hostile text
    /// from exhausting the stack.
    static let maximumDepth = 256

    public static func bytes(of value: JSONValue) throws -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        try write(value, into: &output)
        return output
    }

    public static func write(_ value: JSONValue, into output: inout [UInt8]) throws {
        switch value {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .number(let number): try write(number, into: &output)
        case .string(let text): write(text, into: &output)
        case .array(let items):
            output.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                try write(item, into: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let fields):
            output.append(UInt8(ascii: "{"))
            for (index, field) in fields.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                write(field.key, into: &output)
                output.append(UInt8(ascii: ":"))
                try write(field.value, into: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    static func write(_ number: Double, into output: inout [UInt8]) throws {
        guard number.isFinite else { throw JSONTextError(offset: output.count, problem: "\(number) is not a JSON number") }
        // Whole numbers (counts, milliseconds) print without a fraction,
        // as people and other JSON writers expect.
        if number == number.rounded(), abs(number) < 9_007_199_254_740_992 {
            let whole = Int(number)
            if whole < 0 { output.append(UInt8(ascii: "-")) }
            ASCIIDigits.append(abs(whole), width: 1, to: &output)
        } else {
            output.append(contentsOf: number.description.utf8)
        }
    }

    static func write(_ text: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            // Runs of bytes that need no escaping are copied whole.
            var runStart = 0
            for index in bytes.indices {
                let byte = bytes[index]
                guard byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 else { continue }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                escape(byte, into: &output)
                runStart = index + 1
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        }
        output.append(UInt8(ascii: "\""))
    }

    static func escape(_ byte: UInt8, into output: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): output.append(contentsOf: #"\""#.utf8)
        case UInt8(ascii: "\\"): output.append(contentsOf: #"\\"#.utf8)
        case 0x0A: output.append(contentsOf: #"\n"#.utf8)
        case 0x0D: output.append(contentsOf: #"\r"#.utf8)
        case 0x09: output.append(contentsOf: #"\t"#.utf8)
        case 0x08: output.append(contentsOf: #"\b"#.utf8)
        case 0x0C: output.append(contentsOf: #"\f"#.utf8)
        default:
            let hex = Array("0123456789abcdef".utf8)
            output.append(contentsOf: #"\u00"#.utf8)
            output.append(hex[Int(byte >> 4)])
            output.append(hex[Int(byte & 0xF)])
        }
    }

    public static func value(from bytes: some Collection<UInt8>) throws -> JSONValue {
        var reader = JSONTextReader(bytes: Array(bytes))
        let value = try reader.value(depth: 0)
        reader.skipSpace()
        guard reader.atEnd else { throw reader.error("unexpected text after the JSON value") }
        return value
    }
}

/// Where and why a JSON text could not be read.
public struct JSONTextError: Error, Sendable, Equatable, CustomStringConvertible {
    public var offset: Int
    public var problem: String
    public var description: String { "JSON at byte \(offset): \(problem)" }
}
