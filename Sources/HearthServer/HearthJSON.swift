import Foundation
import HearthCore
import Hummingbird
import NIOCore

/// JSON as the API speaks it: camelCase keys, ISO-8601 UTC dates with milliseconds.
public enum HearthJSON {
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(ISOTime.text(date))
        }
        return encoder
    }

    /// Reads an ISO-8601 time as clients send it (see `ISOTime.date(from:)`).
    public static func date(from text: String) -> Date? { ISOTime.date(from: text) }

    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = Self.date(from: text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "must be an ISO-8601 time, e.g. 2026-03-29T08:00:00Z")
            }
            return date
        }
        return decoder
    }

    public struct ResponseEncoder: Hummingbird.ResponseEncoder {
        public func encode(_ value: some Encodable, from request: Request, context: some RequestContext) throws -> Response {
            var headers = HTTPFields()
            headers[.contentType] = "application/json; charset=utf-8"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: try Self.bytes(of: value))))
        }

        /// Care routes answer with `JSONValue`s, which are written by hand
        /// (see `JSONText`); other bodies go through `JSONEncoder`.
        static func bytes(of value: some Encodable) throws -> [UInt8] {
            if let json = value as? JSONValue { return try JSONText.bytes(of: json) }
            if let list = value as? [JSONValue] { return try JSONText.bytes(of: .array(list)) }
            return Array(try HearthJSON.encoder().encode(value))
        }
    }

    /// Decodes a JSON body, telling apart the three ways a client gets it wrong:
    /// the wrong content type (415), text that is not JSON (400), and JSON of
    /// the wrong shape (422, naming the field).
    public struct RequestDecoder: Hummingbird.RequestDecoder {
        public func decode<T: Decodable>(_ type: T.Type, from request: Request, context: some RequestContext) async throws -> T {
            guard MediaType.isJSON(request.headers[.contentType]) else {
                throw ProblemError(.unsupportedMediaType, type: "unsupported-media-type",
                                   detail: "Send the body as application/json")
            }
            var request = request
            let body = try await request.collectBody(upTo: context.maxUploadSize)
            // A domain rule broken while decoding (a time of day such as
            // 25:00) is a `HearthError` naming its field and passes through
            // as a 422; only the decoder's own errors need translating.
            do {
                return try HearthJSON.decoder().decode(T.self, from: Data(buffer: body))
            } catch let error as DecodingError {
                throw Self.problem(for: error)
            }
        }


        static func problem(for error: DecodingError) -> any Error {
            func field(_ path: [any CodingKey]) -> String {
                path.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
            }
            switch error {
            case .dataCorrupted(let context) where context.codingPath.isEmpty:
                return ProblemError(.badRequest, type: "malformed-json", detail: "The body is not valid JSON")
            case .typeMismatch(_, let context) where context.codingPath.isEmpty:
                return ProblemError(.unprocessableContent, type: "invalid", detail: "The body must be a JSON object")
            case .typeMismatch(let expected, let context):
                return HearthError.invalid(fields: [field(context.codingPath): "must be \(Self.describe(expected))"])
            case .valueNotFound(let expected, let context):
                return HearthError.invalid(fields: [field(context.codingPath): "must be \(Self.describe(expected)), not null"])
            case .keyNotFound(let key, let context):
                return HearthError.invalid(fields: [field(context.codingPath + [key]): "is required"])
            case .dataCorrupted(let context):
                return HearthError.invalid(fields: [field(context.codingPath): "has an invalid value"])
            @unknown default:
                return ProblemError(.badRequest, type: "malformed-json", detail: "The body could not be read")
            }
        }

        static func describe(_ type: Any.Type) -> String {
            switch type {
            case is String.Type, is String?.Type: "a string"
            case is Bool.Type, is Bool?.Type: "true or false"
            case is Int.Type, is Int64.Type, is Double.Type: "a number"
            case is [Any].Type: "a list"
            default: "an object"
            }
        }
    }
}

extension KeyedDecodingContainer {
    /// A field a change may leave out (it then stays as it is) but may not
    /// send as `null`: `decodeIfPresent` reads a null as left out, and a
    /// `"timeZone": null` the API document forbids was quietly accepted.
    func decodeIfGiven<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard contains(key) else { return nil }
        if try decodeNil(forKey: key) {
            throw HearthError.invalid(fields: [key.stringValue: "must not be null; leave it out to keep it as it is"])
        }
        return try decode(type, forKey: key)
    }
}
