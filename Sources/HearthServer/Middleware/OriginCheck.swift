import Hummingbird

/// Browsers name the page that sent a request in `Origin`. A state-changing
/// request or WebSocket upgrade whose Origin is another site is refused, so a
/// web page elsewhere cannot act on the hub through a household browser.
/// Devices that send no Origin are not browsers and pass.
enum OriginCheck {
    static func isAllowed(_ request: Request, cookieAuthenticated: Bool = false) -> Bool {
        guard let origin = request.headers[.origin]?.lowercased() else { return !cookieAuthenticated }
        guard let authority = request.head.authority?.lowercased() else { return false }
        if origin == "http://" + authority || origin == "https://" + authority {
            return true
        }
        // Browsers always send the page's http(s) origin. Non-browser WebSocket
        // clients may send ws://host without the port; that is no page at all.
        for scheme in ["ws://", "wss://"] where origin.hasPrefix(scheme) {
            let host = authority.split(separator: ":").first.map(String.init) ?? authority
            return origin == scheme + authority || origin == scheme + host
        }
        return false
    }
}

/// Applies `OriginCheck` to every request that can change something. Runs
/// after `CallerMiddleware`: a request that authenticated with the browser
/// cookie must also name its Origin, since only browsers send cookies.
struct OriginCheckMiddleware: RouterMiddleware {
    typealias Context = HearthRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        switch request.method {
        case .get, .head, .options:
            break
        default:
            guard OriginCheck.isAllowed(request, cookieAuthenticated: context.authenticatedByCookie) else {
                throw ProblemError(.forbidden, type: "cross-origin",
                                   detail: "Requests from another site's page are not allowed")
            }
        }
        return try await next(request, context)
    }
}
