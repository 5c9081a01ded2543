import HearthCore
import Hummingbird

/// Care routes answer with the JSON shapes of `CareJSON.swift`, the same
/// ones the live stream carries, so a page applies a live change exactly as
/// it reads a list. They are encoded like every other response body.
extension JSONValue: ResponseEncodable {}

extension JSONValue {
    /// An object payload with `fields` added (or replaced).
    func adding(_ fields: [String: JSONValue]) -> JSONValue {
        guard case .object(var object) = self else { return self }
        object.merge(fields) { _, new in new }
        return .object(object)
    }
}
