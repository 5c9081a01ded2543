import HearthCore
import Hummingbird

/// The authentication seam: resolves who is calling and stores it in the
/// context before any route runs. Pairing replaces the body of `resolve`
/// with a device-token lookup; routes only ever read `context.caller`.
struct CallerMiddleware: RouterMiddleware {
    typealias Context = HearthRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.caller = try await resolve(request)
        return try await next(request, context)
    }

    func resolve(_ request: Request) async throws -> Caller {
        .unpaired
    }
}
