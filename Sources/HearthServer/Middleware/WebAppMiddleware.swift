import Hummingbird

/// Serves the web UI for every GET outside `/api/` and `/ntfy/` (the alert
/// apps' endpoint, NtfyController): the file if there is one,
/// otherwise `index.html`, so the app's own pages load from any address.
/// Files carry an ETag and are revalidated on each load (`no-cache`), since
/// their names do not change between versions.
struct WebAppMiddleware<Context: RequestContext>: RouterMiddleware {
    let assets: WebAssets

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        guard request.method == .get || request.method == .head,
              path != "/api", !path.hasPrefix("/api/"), path != NtfyController.root, !path.hasPrefix(NtfyController.root + "/")
        else {
            return try await next(request, context)
        }
        guard let file = assets.file(at: path) ?? assets.file(at: "/index.html") else {
            return try await next(request, context)
        }
        var headers = HTTPFields()
        headers[.contentType] = file.contentType
        headers[.eTag] = file.etag
        headers[.cacheControl] = "no-cache"
        if let tags = request.headers[.ifNoneMatch],
           tags.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == file.etag || $0 == "*" }) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentLength] = String(file.bytes.readableBytes)
        let body: ResponseBody = request.method == .head ? .init() : .init(byteBuffer: file.bytes)
        return Response(status: .ok, headers: headers, body: body)
    }
}
