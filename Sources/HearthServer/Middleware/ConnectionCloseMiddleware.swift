import HTTPTypes
import Hummingbird

/// Says `Connection: close` in the answer to a request that asked for its
/// connection to be closed (RFC 9112 §9.6: the server closes it, and should
/// say so).
///
/// Hummingbird closes such a connection after answering but does not say so,
/// and libcurl (under URLSession on Linux, so HearthKit there) keeps an
/// answered connection for its next request unless the answer says close.
/// Its next request then went out on a connection the hub was closing; libcurl
/// sent it again on a new one, headers without the body, and the hub waited
/// for a body that never came: a device's sync hung for 30 s on a busy
/// machine. HearthKit asks for a fresh connection each request for exactly
/// this reason; with this answer, libcurl takes it.
struct ConnectionCloseMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        if Self.asksToClose(request.headers) {
            response.headers[.connection] = "close"
        }
        return response
    }

    /// `Connection` is a list of options, in any case, possibly over several lines.
    static func asksToClose(_ headers: HTTPFields) -> Bool {
        headers[values: .connection].contains { value in
            value.split(separator: ",").contains { $0.filter { $0 != " " && $0 != "\t" }.lowercased() == "close" }
        }
    }
}
