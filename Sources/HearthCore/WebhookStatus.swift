import Foundation

/// How the household's outgoing webhooks are doing, as `GET /api/v1/health`
/// tells it: which alert kinds have a URL, how many deliveries succeeded,
/// and the latest failure per kind, so a broken Home Assistant or ntfy link
/// is noticed before an SOS depends on it. Never carries a URL (it may hold
/// a secret token) or an alert's contents.
public struct WebhookStatus: Sendable, Equatable, Codable {
    public struct Failure: Sendable, Equatable, Codable {
        public var kind: String
        public var attempts: Int
        public var error: String
        public var at: Date
        /// Still being retried (with backoff), or given up on.
        public var retrying: Bool

        public init(kind: String, attempts: Int, error: String, at: Date, retrying: Bool) {
            self.kind = kind
            self.attempts = attempts
            self.error = error
            self.at = at
            self.retrying = retrying
        }
    }

    /// Alert kinds with a webhook, e.g. `["dose-missed", "sos"]`.
    public var configured: [String]
    public var delivered: Int
    /// Deliveries waiting for their next attempt.
    public var pending: Int
    /// The latest failed delivery of each kind since the last success of that kind.
    public var failures: [Failure]

    public init(configured: [String], delivered: Int = 0, pending: Int = 0, failures: [Failure] = []) {
        self.configured = configured
        self.delivered = delivered
        self.pending = pending
        self.failures = failures
    }

    public static let none = WebhookStatus(configured: [])
}
