import Hummingbird

extension Request {
    /// The body of a request whose body may be left out — the SOS button or
    /// "Refilled" send nothing when the defaults do — or nil when none came.
    /// A request that carries a body or names a content type is decoded (and
    /// checked) as usual.
    func decodeIfSent<T: Decodable>(as type: T.Type, context: HearthRequestContext) async throws -> T? {
        let length = headers[.contentLength].flatMap { Int($0) } ?? 0
        guard headers[.contentType] != nil || length > 0 else { return nil }
        return try await decode(as: type, context: context)
    }
}
