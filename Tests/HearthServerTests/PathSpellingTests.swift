import Foundation
import Logging
import HearthEditing
import HearthCore
import HearthHubTestSupport
@testable import HearthServer
import HearthStore
import HTTPTypes
import Hummingbird
import HearthTestSupport
import Testing

/// Every route the API describes, asked for without a token under other
/// spellings of its path (`//`, `/./`, `%2F`, a trailing `/`, `..`): each
/// answers as its plain spelling does — 401, or the public answer of a
/// public route. The web root has no `index.html`, as when `--web-root`
/// names a folder without one, so nothing else answers first.
@Suite struct PathSpellingTests {
    static func spellings(of path: String) -> [String] {
        let rest = String(path.dropFirst())  // "api/v1/…"
        return [
            "/" + path,
            "/." + path,
            "/api/../" + rest,
            "/" + rest.replacingOccurrences(of: "/", with: "%2F"),
            "/" + rest.replacingOccurrences(of: "/", with: "%2f"),
            path + "/",
            path.replacingOccurrences(of: "/v1/", with: "//v1//"),
            // The first letter escaped: `/%61pi/…`, `/%6Etfy/…`.
            "/%" + String(rest.utf8.first ?? 0, radix: 16) + rest.dropFirst(),
        ]
    }

    /// Routes that need no device token; a notification's button carries a
    /// capability of its own (AlertActionLink), and answers 404 to any other.
    static let publicRoutes: Set<String> = ["GET /api/v1/health", "HEAD /api/v1/health", "POST /api/v1/pairing", "GET /api/v1/openapi.yaml",
                                            "POST /ntfy/actions/{alert}/{answer}/{capability}"]

    @Test func everyRouteUnderEverySpellingAsksForAToken() async throws {
        let directory = try TemporaryDirectory()
        let web = try TemporaryDirectory()
        try Data("body{}".utf8).write(to: web.url.appending(path: "style.css"))
        let store = try HearthStore(directory: directory.url)
        defer { try? store.close() }
        try await store.ensureHousehold(name: "Kowalski family", timeZone: "Europe/Warsaw")
        let router = HearthServer.router(store: store, noteSessions: NoteSessions(store: store, logger: Logger(label: "test")), webRoot: web.url)
        let routes = try OpenAPITests.documentedRoutes(try OpenAPITests.document()).sorted()
        #expect(routes.count > 40)
        try await LoopbackServer.serve(router) { client in
            func status(_ method: HTTPRequest.Method, _ uri: String) async throws -> (HTTPResponse.Status, String) {
                let body: ByteBuffer? = [.post, .put, .patch].contains(method) ? ByteBuffer(string: "{}") : nil
                let headers: HTTPFields = body == nil ? [:] : [.contentType: "application/json"]
                return try await client.execute(uri: uri, method: method, headers: headers, body: body) { response in
                    (response.status, String(buffer: response.body))
                }
            }
            for route in routes {
                let parts = route.split(separator: " ", maxSplits: 1)
                let method = HTTPRequest.Method(String(parts[0]))!
                let path = String(parts[1]).replacing(/\{[^}]+\}/, with: UUID().uuidString.lowercased())
                let (plain, _) = try await status(method, path)
                if !Self.publicRoutes.contains(route) {
                    expectEqual(plain, .unauthorized, "\(route): \(plain)")
                }
                for spelling in Self.spellings(of: path) {
                    let (answer, body) = try await status(method, spelling)
                    expectEqual(answer, plain, "\(method) \(spelling) answered \(answer), not \(plain) as \(path) does: \(body.prefix(200))")
                }
            }
        }
    }

    @Test func pathsAreSpelledOneWay() {
        expectEqual(CanonicalPath.canonical("//api/v1/household"), "/api/v1/household")
        expectEqual(CanonicalPath.canonical("/./api/../../api/v1/"), "/api/v1")
        expectEqual(CanonicalPath.canonical("/api%2Fv1%2fnotes"), "/api/v1/notes")
        expectEqual(CanonicalPath.canonical("/%61pi/v1/%2E%2E/v1"), "/api/v1")
        // An escape that is no unreserved character or "/" is left alone.
        expectEqual(CanonicalPath.canonical("/notes/a%20b%zz%"), "/notes/a%20b%zz%")
        expectEqual(CanonicalPath.canonical("/"), "/")
        #expect(CanonicalPath.split("//api/v1/live?since=4") == ("//api/v1/live", "?since=4"))
    }
}
