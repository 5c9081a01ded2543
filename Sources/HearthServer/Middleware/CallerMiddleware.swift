import HearthCore
import HearthStore
import Hummingbird

/// Resolves who is calling from the device token and stores it in the
/// context before any route runs; routes only ever read `context.caller`.
/// A missing, unknown, revoked or forged token leaves the caller unpaired.
struct CallerMiddleware: RouterMiddleware {
    typealias Context = HearthRequestContext
    let store: HearthStore

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        if let (token, viaCookie) = DeviceToken.presented(in: request),
           let paired = try await store.pairedDevice(token: token, userAgent: request.headers[.userAgent].map { String($0.prefix(200)) }) {
            if paired.device.awaitingApproval {
                context.awaitingApproval = true
            } else {
                context.caller = .device(id: paired.device.id, as: paired.actor)
                context.authenticatedByCookie = viaCookie
            }
        }
        return try await next(request, context)
    }
}
