import Foundation
import HearthCore

/// Reading the hub's JSON without a Codable type for every shape it sends.
extension JSONValue {
    var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    var double: Double? {
        if case .number(let number) = self { return number }
        return nil
    }

    var bool: Bool? {
        if case .bool(let flag) = self { return flag }
        return nil
    }

    var array: [JSONValue]? {
        if case .array(let items) = self { return items }
        return nil
    }

    var date: Date? { string.flatMap(ISOTime.date(from:)) }
}
