import Foundation
import HTTPTypes
import HearthCore
import Hummingbird

/// `Hearth-Time` on every response: the hub's time in milliseconds since
/// 1970, as corrected (`HearthStore.currentTime`). A tablet's own clock may
/// be wrong (an offline Wi-Fi has no NTP) and the hub's may have been set by
/// hand; every "due", "late" and "in five minutes" is the hub's, so the web
/// UI keeps the difference (`Web/hub-clock.js`) and pages read the time there.
/// HTTP's own `Date` is the system clock, in whole seconds.
struct HubTimeMiddleware<Context: RequestContext>: RouterMiddleware {
    static var field: HTTPField.Name { HTTPField.Name("Hearth-Time")! }
    let now: @Sendable () -> Date

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        // Read as the answer leaves, so a slow answer does not carry an old time.
        response.headers[Self.field] = String(now().millisecondsSince1970)
        return response
    }
}
