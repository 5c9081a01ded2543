import Foundation

/// Any JSON value. A change's payload is stored and sent as JSON whose shape
/// depends on the entity, so it needs a type that round-trips any of it.
public enum JSONValue: Sendable, Hashable, Codable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// Compact JSON text with sorted keys, so equal payloads are stored as equal text.
    public func jsonText() throws -> String {
        String(decoding: try JSONText.bytes(of: self), as: UTF8.self)
    }

    public init(jsonText: String) throws {
        self = try JSONText.value(from: jsonText.utf8)
    }
}

extension JSONValue {
    /// A field of an object; nil for a missing field or a value that is not an object.
    public func field(_ name: String) -> JSONValue? {
        if case .object(let object) = self { return object[name] }
        return nil
    }

    /// The object with one field set; anything but an object is left as it is.
    public func setting(_ name: String, _ value: JSONValue) -> JSONValue {
        guard case .object(var object) = self else { return self }
        object[name] = value
        return .object(object)
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByDictionaryLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
