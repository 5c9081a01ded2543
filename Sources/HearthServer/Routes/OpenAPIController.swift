import Hummingbird

/// `GET /api/v1/openapi.yaml`: the OpenAPI 3.1 description of every route
/// (`Web/openapi.yaml`, compiled in with the web UI). Public, like health, so
/// a developer can read it before pairing; a test keeps it true to the router.
struct OpenAPIController {
    static let path = APIPath.link(.openAPI)
    let assets: WebAssets

    func addRoutes(to api: RouterGroup<HearthRequestContext>) {
        api.get(RouterPath(APIPath.Resource.openAPI.rawValue)) { _, _ -> Response in
            guard let file = assets.file(at: "openapi.yaml") else {
                throw HTTPError(.notFound)
            }
            return Response(status: .ok, headers: [.contentType: file.contentType, .eTag: file.etag], body: .init(byteBuffer: file.bytes))
        }
    }
}
