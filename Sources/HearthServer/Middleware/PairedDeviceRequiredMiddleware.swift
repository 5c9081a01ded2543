import Hummingbird

/// Every `/api/` address needs a paired device, except those a device uses
/// before it has one: the health check, the pairing exchange, and the API's
/// own description.
struct PairedDeviceRequiredMiddleware: RouterMiddleware {
    typealias Context = HearthRequestContext

    static let health = APIPath.link(.health)
    static let pairing = APIPath.link(.pairing)

    static func isPublic(_ request: Request) -> Bool {
        switch (request.method, request.uri.path) {
        case (.get, Self.health), (.head, Self.health), (.post, Self.pairing), (.get, OpenAPIController.path): true
        default: false
        }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        if path == "/api" || path.hasPrefix("/api/"), !Self.isPublic(request) {
            _ = try context.requirePaired()
        }
        return try await next(request, context)
    }
}
