import Hummingbird

/// A method the API document does not list for a path it describes
/// (TRACE, or DELETE on a list) gets 405 with `Allow`, not the router's
/// 404, which would say the address does not exist. HEAD rides on GET.
enum MethodNotAllowed {
    static func refusal(of request: Request, documented: DocumentedMethods) -> Response? {
        let method = request.method.rawValue
        guard let allowed = documented.methods(for: request.uri.path), !allowed.isEmpty,
              !allowed.contains(method), !(method == "HEAD" && allowed.contains("GET"))
        else { return nil }
        var response = ProblemDetails(status: .methodNotAllowed, slug: "method-not-allowed",
                                      detail: "\(method) is not allowed here; this address takes \(list(allowed))").response()
        response.headers[.allow] = list(allowed)
        for field in SecurityHeadersMiddleware<HearthRequestContext>.headers { response.headers[field.name] = field.value }
        return response
    }

    static func list(_ methods: Set<String>) -> String {
        methods.sorted().joined(separator: ", ")
    }
}
