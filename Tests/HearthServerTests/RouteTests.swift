import Foundation
import Logging
import HearthEditing
import HearthHubTestSupport
import HearthCore
@testable import HearthServer
import HearthStore
import HTTPTypes
import Hummingbird
import HearthTestSupport
import Testing

/// The routes, served on a loopback port and asked over a real socket.
@Suite struct RouteTests {
    /// Runs `body` with a client that acts as a paired admin's device
    /// (`client.anonymous` sends no credentials) on a fresh store.
    static func withRouter(_ body: @escaping @Sendable (PairedClient, HearthStore) async throws -> Void) async throws {
        try await RunningHub.with(router: { store in
            HearthServer.router(store: store, noteSessions: NoteSessions(store: store, logger: Logger(label: "test")))
        }) { port, store, _, token in
            let client = TestClient(host: "127.0.0.1", port: port)
            try await body(PairedClient(anonymous: client, token: token), store)
            try await client.shutdown()
        }
    }

    static func problem(_ buffer: ByteBuffer) throws -> ProblemDetails {
        try JSONDecoder().decode(ProblemDetails.self, from: Data(buffer: buffer))
    }

    static let json: HTTPFields = [.contentType: "application/json"]

    @Test func healthSaysTheHubAndItsDatabaseAreUp() async throws {
        try await Self.withRouter { client, _ in
            try await client.execute(uri: "/api/v1/health", method: .get) { response in
                expectEqual(response.status, .ok)
                let body = try JSONDecoder().decode([String: JSONValue].self, from: Data(buffer: response.body))
                expectEqual(body["status"], "ok")
                expectEqual(body["database"], "ok")
                expectEqual(body["version"], .string(HearthVersion.current))
                #expect(body["uptimeSeconds"] != nil)
                expectEqual(body["discovery"], .object(["state": "disabled", "services": .array([])]))
            }
        }
    }

    @Test func healthTellsOnlyAnAdminMoreThanThatTheHubIsUp() async throws {
        try await Self.withRouter { client, store in
            let caregiver = try await NotesRouteTests.device(store, "Ania", .caregiver)
            for headers: HTTPFields in [[:], [.authorization: "Bearer \(caregiver)"], [.authorization: "Bearer not-a-token"]] {
                try await client.anonymous.execute(uri: "/api/v1/health", method: .get, headers: headers) { response in
                    expectEqual(response.status, .ok)
                    let body = try JSONDecoder().decode([String: JSONValue].self, from: Data(buffer: response.body))
                    expectEqual(body, ["status": "ok", "version": .string(HearthVersion.current)], "no uptime, discovery, webhooks or alert channels")
                }
            }
            // The admin's device (the client's own token) sees the details
            try await client.execute(uri: "/api/v1/health", method: .get) { response in
                let body = try JSONDecoder().decode([String: JSONValue].self, from: Data(buffer: response.body))
                expectEqual(Set(body.keys), ["status", "version", "uptimeSeconds", "database", "discovery", "webhooks", "alerts"])
            }
        }
    }

    @Test func healthTellsWhereTheHubIsAnnouncedOnTheLAN() async throws {
        let directory = try TemporaryDirectory()
        let store = try HearthStore(directory: directory.url)
        defer { try? store.close() }
        let status = DiscoveryStatus(state: .advertising, services: [
            .init(type: "_hearth._tcp", name: "Kowalski family (Hearth) #2", port: 8080),
        ])
        try await store.ensureHousehold(name: "Home", timeZone: "Europe/Warsaw")
        let invitation = try await store.createPairing(for: .newPerson(name: "Admin", role: .admin), deviceName: nil, by: "test", maker: .hubTerminal)
        let (_, token) = try await store.redeemPairing(.secret(invitation.code.secret), deviceName: "Laptop", userAgent: nil)
        let router = HearthServer.router(store: store, noteSessions: NoteSessions(store: store, logger: Logger(label: "test")), discovery: { status })
        try await LoopbackServer.serve(router) { client in
            try await client.execute(uri: "/api/v1/health", method: .get, headers: [.authorization: "Bearer \(token)"]) { response in
                let body = try JSONDecoder().decode([String: JSONValue].self, from: Data(buffer: response.body))
                #expect(body["discovery"] == .object([
                    "state": "advertising",
                    "services": .array([.object(["type": "_hearth._tcp", "name": "Kowalski family (Hearth) #2", "port": .number(8080)])]),
                ]))
            }
        }
    }

    @Test func theHouseholdIsShownAndCanBeRenamed() async throws {
        try await Self.withRouter { client, store in
            try await client.execute(uri: "/api/v1/household", method: .get) { response in
                expectEqual(response.status, .ok)
                let body = try JSONDecoder().decode([String: String].self, from: Data(buffer: response.body))
                expectEqual(body["name"], "Kowalski family")
                expectEqual(body["timeZone"], "Europe/Warsaw")
                expectEqual(body["createdAt"]?.hasSuffix("Z"), true)
            }
            try await client.execute(uri: "/api/v1/household", method: .patch, headers: Self.json,
                                     body: ByteBuffer(string: #"{"name":"Dom Kowalskich"}"#)) { response in
                expectEqual(response.status, .ok)
            }
            try await expectEqual(store.household()?.name, "Dom Kowalskich")
            let last = try await store.changes(after: 0, limit: 100).last
            expectEqual(last?.entity, .household)
            expectEqual(last?.payload, ["name": "Dom Kowalskich"])
        }
    }

    @Test(arguments: [
        (#"{"name":"#, "application/json", HTTPResponse.Status.badRequest, "malformed-json"),
        (#"{"name":5}"#, "application/json", .unprocessableContent, "invalid"),
        (#"{"name":""}"#, "application/json", .unprocessableContent, "invalid"),
        (#"{"timeZone":"Nowhere/Town"}"#, "application/json", .unprocessableContent, "invalid"),
        (#"{"name":"x"}"#, "text/plain", .unsupportedMediaType, "unsupported-media-type"),
        (#"[1,2]"#, "application/json", .unprocessableContent, "invalid"),
    ])
    func badBodiesGetAProblemAndChangeNothing(body: String, contentType: String, status: HTTPResponse.Status, slug: String) async throws {
        try await Self.withRouter { client, store in
            let before = try await store.latestSeq()
            try await client.execute(uri: "/api/v1/household", method: .patch, headers: [.contentType: contentType],
                                     body: ByteBuffer(string: body)) { response in
                expectEqual(response.status, status)
                expectEqual(response.headers[.contentType], "application/problem+json")
                let problem = try Self.problem(response.body)
                expectEqual(problem.type, "urn:hearth:problem:" + slug)
                expectEqual(problem.status, status.code)
            }
            try await expectEqual(store.household()?.name, "Kowalski family")
            try await expectEqual(store.latestSeq(), before)
        }
    }

    @Test func aBodyOverOneMebibyteIsRefused() async throws {
        try await Self.withRouter { client, store in
            let before = try await store.latestSeq()
            let name = String(repeating: "a", count: HearthLimits.requestBody + 10)
            try await client.execute(uri: "/api/v1/household", method: .patch, headers: Self.json,
                                     body: ByteBuffer(string: #"{"name":"\#(name)"}"#)) { response in
                expectEqual(response.status, .contentTooLarge)
                let problem = try Self.problem(response.body)
                expectEqual(problem.type, "urn:hearth:problem:too-large")
            }
            try await expectEqual(store.latestSeq(), before)
        }
    }

    @Test func unknownAPIPathsAreJSON404s() async throws {
        try await Self.withRouter { client, _ in
            for path in ["/api/v1/nothing-here", "/api/v2/health", "/api/"] {
                try await client.execute(uri: path, method: .get) { response in
                    expectEqual(response.status, .notFound, "\(path)")
                    expectEqual(response.headers[.contentType], "application/problem+json")
                    let problem = try Self.problem(response.body)
                    expectEqual(problem.type, "urn:hearth:problem:not-found")
                }
            }
        }
    }

    @Test func otherPathsServeTheApp() async throws {
        try await Self.withRouter { client, _ in
            var etag: String?
            for path in ["/", "/index.html", "/notes", "/some/deep/link"] {
                try await client.execute(uri: path, method: .get) { response in
                    expectEqual(response.status, .ok, "\(path)")
                    expectEqual(response.headers[.contentType], "text/html; charset=utf-8")
                    #expect(String(buffer: response.body).contains("<html"))
                    etag = response.headers[.eTag]
                }
            }
            try await client.execute(uri: "/app.js", method: .get) { response in
                expectEqual(response.headers[.contentType], "text/javascript; charset=utf-8")
            }
            try await client.execute(uri: "/i18n/pl.json", method: .get) { response in
                expectEqual(response.headers[.contentType], "application/json; charset=utf-8")
                #expect(String(buffer: response.body).contains("Dzisiaj"))
            }
            let tag = try #require(etag)
            try await client.execute(uri: "/", method: .get, headers: [.ifNoneMatch: tag]) { response in
                expectEqual(response.status, .notModified)
                expectEqual(response.body.readableBytes, 0)
            }
        }
    }

    @Test func theUIsOwnTestsAreNotServed() async throws {
        try await Self.withRouter { client, _ in
            try await client.execute(uri: "/tests/router.test.js", method: .get) { response in
                // Falls back to the app, never the test file.
                expectEqual(response.headers[.contentType], "text/html; charset=utf-8")
            }
        }
    }

    @Test func everyResponseCarriesTheSecurityHeaders() async throws {
        try await Self.withRouter { client, _ in
            for path in ["/", "/api/v1/health", "/api/v1/missing", "/style.css"] {
                try await client.execute(uri: path, method: .get) { response in
                    expectEqual(response.headers[.contentSecurityPolicy], "default-src 'self'; img-src 'self' data:", "\(path)")
                    expectEqual(response.headers[HTTPField.Name("X-Content-Type-Options")!], "nosniff")
                    expectEqual(response.headers[HTTPField.Name("Referrer-Policy")!], "no-referrer")
                    expectEqual(response.headers[HTTPField.Name("X-Frame-Options")!], "DENY")
                }
            }
        }
    }

    @Test func anotherSitesPageCannotChangeAnything() async throws {
        try await Self.withRouter { client, store in
            try await client.execute(uri: "/api/v1/household", method: .patch,
                                     headers: [.contentType: "application/json", .origin: "http://evil.example"],
                                     body: ByteBuffer(string: #"{"name":"Hacked"}"#)) { response in
                expectEqual(response.status, .forbidden)
                let problem = try Self.problem(response.body)
                expectEqual(problem.type, "urn:hearth:problem:cross-origin")
            }
            try await expectEqual(store.household()?.name, "Kowalski family")
        }
    }

    @Test func theLiveAddressExplainsBadRequests() async throws {
        try await Self.withRouter { client, _ in
            for (query, status, slug) in [
                ("?since=abc", HTTPResponse.Status.badRequest, "invalid-cursor"),
                ("?since=-1", .badRequest, "invalid-cursor"),
                ("?since=99999999999999999999", .badRequest, "invalid-cursor"),
                ("?since=99", .conflict, "cursor-ahead"),
                ("?since=1", .upgradeRequired, "upgrade-required"),
                ("", .upgradeRequired, "upgrade-required"),
            ] {
                try await client.execute(uri: "/api/v1/live" + query, method: .get) { response in
                    expectEqual(response.status, status, "\(query)")
                    let problem = try Self.problem(response.body)
                    expectEqual(problem.type, "urn:hearth:problem:" + slug)
                }
            }
        }
    }
}

/// A test client that sends a paired device's bearer token unless the request
/// already carries credentials; `anonymous` is the same client without them.
struct PairedClient: TestClientProtocol {
    let anonymous: any TestClientProtocol
    let token: String

    func executeRequest(uri: String, method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer?) async throws -> TestResponse {
        var headers = headers
        if headers[.authorization] == nil && headers[.cookie] == nil {
            headers[.authorization] = "Bearer \(token)"
        }
        return try await anonymous.executeRequest(uri: uri, method: method, headers: headers, body: body)
    }
}

@Suite struct AuthenticationTests {
    @Test func everyAPIRouteButHealthPairingAndTheDescriptionNeedsAPairedDevice() async throws {
        let directory = try TemporaryDirectory()
        let store = try HearthStore(directory: directory.url)
        defer { try? store.close() }
        try await store.ensureHousehold(name: "Home", timeZone: "Europe/Warsaw")
        let router = HearthServer.router(store: store, noteSessions: NoteSessions(store: store, logger: Logger(label: "test")))
        let routes = router.routes.filter { $0.path.description.hasPrefix("/api/") }
            .map { (path: $0.path.description, method: $0.method) }
        #expect(routes.count >= 6, "the router lists its routes")
        try await LoopbackServer.serve(router) { client in
            for route in routes {
                // Fill parameters such as {id} with an ID nobody has.
                let path = route.path.split(separator: "/").map { part in
                    part.hasPrefix("{") || part.hasPrefix(":") ? Substring(UUID().uuidString) : part
                }.joined(separator: "/")
                let isPublic = (route.path == "/api/v1/health" && [.get, .head].contains(route.method))
                    || (route.path == "/api/v1/pairing" && route.method == .post)
                    || (route.path == OpenAPIController.path && route.method == .get)
                try await client.execute(uri: "/" + path, method: route.method,
                                         headers: [.contentType: "application/json", .cookie: "hearth_device=forged"],
                                         body: ByteBuffer(string: "{}")) { response in
                    if isPublic {
                        #expect(response.status != .unauthorized, "\(route.method) \(route.path)")
                    } else {
                        expectEqual(response.status, .unauthorized, "\(route.method) \(route.path)")
                        expectEqual(response.headers[.contentType], "application/problem+json")
                    }
                }
            }
        }
        try await expectEqual(store.latestSeq(), 1, "nothing was written")
    }
}
