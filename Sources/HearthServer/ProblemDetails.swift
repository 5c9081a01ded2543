import Foundation
import HearthCore
import Hummingbird
import NIOCore

/// An RFC 9457 problem document, the body of every error response.
public struct ProblemDetails: Codable, Sendable, Equatable {
    public var type: String
    public var title: String
    public var status: Int
    public var detail: String
    /// Per-field messages for validation failures.
    public var errors: [String: String]?
    /// For `limit-reached`: which as-needed rule, for which medication, and
    /// when the next dose is allowed (or the daily maximum), so a device can
    /// say it in its own language.
    public var rule: String?
    public var medicationName: String?
    public var nextAllowedAt: Date?
    public var nextAllowedTime: String?
    public var dailyMaximum: Int?
    /// For `cursor-expired`: where to fetch a fresh copy of everything.
    public var snapshot: String?

    public init(status: HTTPResponse.Status, slug: String, detail: String, errors: [String: String]? = nil) {
        self.type = "urn:hearth:problem:" + slug
        self.title = status.reasonPhrase
        self.status = status.code
        self.detail = detail
        self.errors = errors
    }

    /// The one mapping from errors to HTTP (Docs/architecture.md, errors).
    public init(error: any Error) {
        switch error {
        case let problem as ProblemError:
            self.init(status: problem.status, slug: problem.type, detail: problem.detail)
        case let hearth as HearthError:
            switch hearth {
            case .invalid(let fields):
                self.init(status: .unprocessableContent, slug: "invalid", detail: hearth.description, errors: fields)
            case .notFound:
                self.init(status: .notFound, slug: "not-found", detail: hearth.description)
            case .conflict:
                self.init(status: .conflict, slug: "conflict", detail: hearth.description)
            case .forbidden:
                self.init(status: .forbidden, slug: "forbidden", detail: hearth.description)
            case .unpaired:
                self.init(status: .unauthorized, slug: "unpaired", detail: hearth.description)
            case .awaitingApproval:
                self.init(status: .forbidden, slug: "awaiting-approval", detail: hearth.description)
            case .limitReached(let refusal):
                self.init(status: .conflict, slug: "limit-reached", detail: hearth.description)
                rule = refusal.rule.rawValue
                medicationName = refusal.medicationName
                nextAllowedAt = refusal.nextAllowedAt
                nextAllowedTime = refusal.nextAllowedTime
                dailyMaximum = refusal.dailyMaximum
            case .cursorAhead:
                self.init(status: .conflict, slug: "cursor-ahead", detail: hearth.description)
            case .tooLarge:
                self.init(status: .contentTooLarge, slug: "too-large", detail: hearth.description)
            case .cursorExpired:
                self.init(status: .gone, slug: "cursor-expired", detail: hearth.description)
                snapshot = APIPath.link(.sync, "snapshot")
            }
        case let http as any HTTPResponseError:
            switch http.status {
            case .notFound:
                self.init(status: .notFound, slug: "not-found", detail: "There is nothing at this address")
            case .contentTooLarge:
                self.init(status: .contentTooLarge, slug: "too-large",
                          detail: "The request body is larger than \(HearthLimits.requestBody) bytes")
            case .methodNotAllowed:
                self.init(status: .methodNotAllowed, slug: "method-not-allowed", detail: "This method is not allowed here")
            default:
                let detail = (http as? HTTPError)?.body ?? http.status.reasonPhrase
                self.init(status: http.status, slug: "http-\(http.status.code)", detail: detail)
            }
        default:
            self.init(status: .internalServerError, slug: "internal",
                      detail: "The hub could not finish this request; nothing was changed")
        }
    }

    public var httpStatus: HTTPResponse.Status { .init(code: status) }

    public func response() -> Response {
        let data = (try? HearthJSON.encoder().encode(self)) ?? Data("{}".utf8)
        var headers = HTTPFields()
        headers[.contentType] = "application/problem+json"
        headers[.cacheControl] = "no-store"
        return Response(status: httpStatus, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
