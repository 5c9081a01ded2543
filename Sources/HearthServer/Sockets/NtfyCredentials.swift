import Foundation
import HearthAlerts
import HearthCore
import HearthStore
import Hummingbird

/// How an alert app proves who it is: HTTP Basic with the user name and
/// password of an alert-app credential (`/api/v1/alert-apps`). A failure
/// is always 401 with `WWW-Authenticate: Basic realm="Hearth"`, so the app
/// asks for the user again, and never says which half was wrong.
enum NtfyCredentials {
    static let challenge = #"Basic realm="Hearth""#

    /// The user name and password in `Authorization: Basic …`, or nil.
    static func presented(in request: Request) -> (username: String, password: String)? {
        guard let header = request.headers[.authorization], header.count <= 512 else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic",
              let decoded = Data(base64Encoded: String(parts[1]).trimmingCharacters(in: .whitespaces)),
              let text = String(data: decoded, encoding: .utf8),
              let colon = text.firstIndex(of: ":") else { return nil }
        return (String(text[..<colon]), String(text[text.index(after: colon)...]))
    }

    /// The signed-in credential, or the 401 problem to answer with.
    static func signIn(_ request: Request, store: HearthStore) async throws -> SignedInAlertApp {
        guard let (username, password) = presented(in: request),
              let app = try await store.alertAppSignIn(username: username, password: password) else {
            throw NtfyProblem.unauthorized
        }
        return app
    }
}

/// The failures of the alert-app endpoint, each answered as problem+json.
enum NtfyProblem: Error {
    case unauthorized
    case unknownTopic
    case badSince
    case tooManyStreams(limit: Int)

    var details: ProblemDetails {
        switch self {
        case .unauthorized:
            ProblemDetails(status: .unauthorized, slug: "alert-app-unauthorized",
                           detail: "Sign in with the user name and password of an alert app made on the hub's \"Alerts on this phone\" page")
        case .unknownTopic:
            ProblemDetails(status: .notFound, slug: "unknown-topic",
                           detail: "Topics are alerts, sos, doses and stock (several joined with commas)")
        case .badSince:
            ProblemDetails(status: .badRequest, slug: "invalid-since",
                           detail: "since must be none, all, the id of a message from this hub, or a time in Unix seconds")
        case .tooManyStreams(let limit):
            ProblemDetails(status: .tooManyRequests, slug: "too-many-streams",
                           detail: "This alert app already has \(limit) open subscriptions; close one first")
        }
    }

    func response() -> Response {
        var response = details.response()
        if case .unauthorized = self { response.headers[.wwwAuthenticate] = NtfyCredentials.challenge }
        return response
    }
}
