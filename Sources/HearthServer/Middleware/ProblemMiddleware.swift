import Hummingbird
import Logging

/// Turns every error a route throws into a problem+json response, and logs
/// the ones that are the hub's fault.
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let problem = ProblemDetails(error: error)
            if problem.status >= 500 {
                context.logger.error("request failed", metadata: [
                    "path": "\(request.uri.path)", "error": "\(String(reflecting: type(of: error)))",
                ])
            }
            return problem.response()
        }
    }
}
