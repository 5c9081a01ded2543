import Hummingbird

/// An HTTP failure that is not a domain rule: wrong media type, bad JSON,
/// unknown route. Domain failures are `HearthError`.
public struct ProblemError: Error, Sendable {
    public let status: HTTPResponse.Status
    /// Stable slug; the problem `type` is `urn:hearth:problem:<slug>`.
    public let type: String
    public let detail: String

    public init(_ status: HTTPResponse.Status, type: String, detail: String) {
        self.status = status
        self.type = type
        self.detail = detail
    }
}
