import Hummingbird

/// Browsers name the page that sent a request in `Origin`. A state-changing
/// request or WebSocket upgrade whose Origin is another site is refused, so a
/// web page elsewhere cannot act on the hub through a household browser.
/// Devices that send no Origin are not browsers and pass.
enum OriginCheck {
    static func isAllowed(_ request: Request) -> Bool {
        guard let origin = request.headers[.origin] else { return true }
        guard let host = request.head.authority else { return false }
        let lowered = origin.lowercased()
        return lowered == "http://" + host.lowercased() || lowered == "https://" + host.lowercased()
    }
}

/// Applies `OriginCheck` to every request that can change something.
struct OriginCheckMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        switch request.method {
        case .get, .head, .options:
            break
        default:
            guard OriginCheck.isAllowed(request) else {
                throw ProblemError(.forbidden, type: "cross-origin",
                                   detail: "Requests from another site's page are not allowed")
            }
        }
        return try await next(request, context)
    }
}
