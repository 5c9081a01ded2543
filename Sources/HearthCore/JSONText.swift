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
            for (index, key) in fields.keys.sorted().enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                write(key, into: &output)
                output.append(UInt8(ascii: ":"))
                try write(fields[key] ?? .null, into: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    static func write(_ number: Double, into output: inout [UInt8]) throws {
        guard number.isFinite else { throw JSONTextError(offset: output.count, problem: "\(number) is not a JSON number") }
        // Whole numbers (counts, milliseconds) print without a fraction,
        // as people and other JSON writers expect.
        if number == number.rounded(), abs(number) < 9_007_199_254_740_992 {
            output.append(contentsOf: String(Int64(number)).utf8)
        } else {
            output.append(contentsOf: number.description.utf8)
        }
    }

    static func write(_ text: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): output.append(contentsOf: #"\\"#.utf8)
            case 0x0A: output.append(contentsOf: #"\n"#.utf8)
            case 0x0D: output.append(contentsOf: #"\r"#.utf8)
            case 0x09: output.append(contentsOf: #"\t"#.utf8)
            case 0x08: output.append(contentsOf: #"\b"#.utf8)
            case 0x0C: output.append(contentsOf: #"\f"#.utf8)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                output.append(contentsOf: #"\u00"#.utf8)
                output.append(hex[Int(byte >> 4)])
                output.append(hex[Int(byte & 0xF)])
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
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
