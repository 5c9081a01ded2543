import Foundation
import Logging
import HearthEditing
import HearthHubTestSupport
import HearthCore
@testable import HearthServer
import HearthStore
import Hummingbird
import HearthTestSupport
import Testing
import Yams

/// `Web/openapi.yaml` is the contract devices are written against; these
/// tests keep it and the router saying the same thing.
@Suite struct OpenAPITests {
    static let file = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appending(path: "Web/openapi.yaml")

    static func document() throws -> [String: Any] {
        let text = try String(contentsOf: file, encoding: .utf8)
        return try #require(try Yams.load(yaml: text) as? [String: Any])
    }

    /// "GET /api/v1/notes/{id}" for every operation in the description.
    static func documentedRoutes(_ document: [String: Any]) throws -> Set<String> {
        let paths = try #require(document["paths"] as? [String: Any])
        var routes: Set<String> = []
        for (path, item) in paths {
            let operations = try #require(item as? [String: Any], "\(path)")
            for method in operations.keys where ["get", "put", "post", "delete", "patch", "head", "options"].contains(method) {
                routes.insert("\(method.uppercased()) \(path)")
            }
        }
        return routes
    }

    @Test func everyRouteIsDescribedAndEveryDescribedRouteExists() async throws {
        let directory = try TemporaryDirectory()
        let store = try HearthStore(directory: directory.url)
        defer { try? store.close() }
        let router = HearthServer.router(store: store, noteSessions: NoteSessions(store: store, logger: Logger(label: "test")))
        let registered = Set(router.routes.map { "\($0.method.rawValue) \($0.path.description.hasPrefix("/") ? "" : "/")\($0.path)" })
        let documented = try Self.documentedRoutes(try Self.document())
        #expect(registered.count > 40, "\(registered.sorted())")
        #expect(registered.subtracting(documented).isEmpty, "routes missing from openapi.yaml: \(registered.subtracting(documented).sorted())")
        #expect(documented.subtracting(registered).isEmpty, "openapi.yaml describes routes that do not exist: \(documented.subtracting(registered).sorted())")
    }

    @Test func everyOperationIsNamedAndAnswersAndEveryReferenceResolves() throws {
        let document = try Self.document()
        expectEqual((document["openapi"] as? String)?.hasPrefix("3.1"), true)
        #expect((document["info"] as? [String: Any])?["version"] as? String == HearthVersion.current)
        var operationIds: [String] = []
        for (path, item) in try #require(document["paths"] as? [String: Any]) {
            for (method, operation) in try #require(item as? [String: Any]) where method != "parameters" {
                let operation = try #require(operation as? [String: Any], "\(method) \(path)")
                operationIds.append(try #require(operation["operationId"] as? String, "\(method) \(path) has no operationId"))
                expectEqual((operation["responses"] as? [String: Any])?.isEmpty, false, "\(method) \(path) lists no responses")
            }
        }
        expectEqual(Set(operationIds).count, operationIds.count, "operationIds repeat")

        // Every "$ref": "#/components/…" names something that is there.
        let text = try String(contentsOf: Self.file, encoding: .utf8)
        let components = try #require(document["components"] as? [String: Any])
        let references = text.matches(of: /\$ref:\s*['"]?#\/components\/(\w+)\/([\w.-]+)/).map { (String($0.1), String($0.2)) }
        #expect(!references.isEmpty)
        for (section, name) in references {
            #expect((components[section] as? [String: Any])?[name] != nil, "#/components/\(section)/\(name) is not defined")
        }
    }

    @Test func theDescriptionIsServedWithoutATokenAsTheFileSaysIt() async throws {
        try await RouteTests.withRouter { client, _ in
            try await client.anonymous.execute(uri: OpenAPIController.path, method: .get) { response in
                expectEqual(response.status, .ok)
                expectEqual(response.headers[.contentType], "application/yaml; charset=utf-8")
                let onDisk = try Data(contentsOf: Self.file)
                expectEqual(Data(buffer: response.body), onDisk)
            }
        }
    }
}
