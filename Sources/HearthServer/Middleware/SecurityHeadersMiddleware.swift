import HTTPTypes
import Hummingbird

/// Headers on every response that keep a browser from running anything but
/// the hub's own files, framing the hub, or leaking its addresses.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    static var headers: HTTPFields {
        var fields = HTTPFields()
        // Images may also be data: URLs: the tab's icon carries the number
        // of open alerts, drawn in the page (an image runs no script).
        fields[.contentSecurityPolicy] = "default-src 'self'; img-src 'self' data:"
        fields[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        fields[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        fields[HTTPField.Name("X-Frame-Options")!] = "DENY"
        return fields
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        for field in Self.headers {
            response.headers[field.name] = field.value
        }
        return response
    }
}
