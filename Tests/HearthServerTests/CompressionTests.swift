import CompressNIO
import Foundation
import HearthCore
@testable import HearthServer
import HearthStore
import HTTPTypes
import Hummingbird
import HearthHubTestSupport
import NIOCore
import Testing
import HearthTestSupport

/// Large JSON answers go gzipped to clients that ask for it, and only to them.
@Suite struct CompressionTests {
    static func gzip(_ coding: String?) -> HTTPFields {
        var fields = HTTPFields()
        if let coding { fields[.acceptEncoding] = coding }
        return fields
    }

    @Test func aLargeAnswerIsGzippedForAClientThatAcceptsItAndReadsTheSame() async throws {
        try await RouteTests.withRouter { client, store in
            let admin = try #require(try await store.person(named: "Admin")?.id)
            for index in 0..<40 {
                _ = try await store.createNote(as: .noteMaker(admin), title: "Zakupy \(index)", text: "mleko, chleb, masło, jajka — ąęłńóśźż",
                                               visibility: .shared, pinned: false, by: "test")
            }
            let plain = try await client.execute(uri: "/api/v1/notes", method: .get, headers: Self.gzip(nil)) { response in
                expectEqual(response.status, .ok)
                #expect(response.headers[.contentEncoding] == nil, "not asked for, not gzipped")
                expectEqual(response.headers[.vary], "Accept-Encoding")
                return response.body
            }
            #expect(plain.readableBytes > CompressionMiddleware<HearthRequestContext>.minimumSize)
            for accept in ["gzip", "deflate, gzip, br, zstd", "br;q=1.0, gzip;q=0.8", "*"] {
                try await client.execute(uri: "/api/v1/notes", method: .get, headers: Self.gzip(accept)) { response in
                    expectEqual(response.status, .ok)
                    expectEqual(response.headers[.contentEncoding], "gzip", "Accept-Encoding: \(accept)")
                    expectEqual(response.headers[.contentType]?.hasPrefix("application/json"), true)
                    expectEqual(response.headers[.contentLength], String(response.body.readableBytes))
                    #expect(response.body.readableBytes * 4 < plain.readableBytes, "repeated JSON shrinks: \(response.body.readableBytes) of \(plain.readableBytes)")
                    var body = response.body
                    let unzipped = try body.decompress(with: ZlibAlgorithm.gzip)
                    expectEqual(unzipped, plain, "the same answer once unzipped")
                }
            }
        }
    }

    @Test func refusedOrSmallOrNonJSONAnswersAreSentAsTheyAre() async throws {
        try await RouteTests.withRouter { client, store in
            let admin = try #require(try await store.person(named: "Admin")?.id)
            for index in 0..<40 {
                _ = try await store.createNote(as: .noteMaker(admin), title: "Notatka \(index)", text: "tekst", visibility: .shared, pinned: false, by: "test")
            }
            for accept in ["gzip;q=0", "identity", "br"] {
                try await client.execute(uri: "/api/v1/notes", method: .get, headers: Self.gzip(accept)) { response in
                    #expect(response.headers[.contentEncoding] == nil, "Accept-Encoding: \(accept)")
                    #expect(throws: Never.self) { try JSONText.value(from: Data(buffer: response.body)) }
                }
            }
            // A small answer: nothing to win.
            try await client.execute(uri: "/api/v1/health", method: .get, headers: Self.gzip("gzip")) { response in
                expectEqual(response.status, .ok)
                #expect(response.headers[.contentEncoding] == nil)
                #expect(response.body.readableBytes < CompressionMiddleware<HearthRequestContext>.minimumSize)
            }
            // Not JSON (the web app's files carry their own ETags): as it is.
            try await client.execute(uri: "/api/v1/openapi.yaml", method: .get, headers: Self.gzip("gzip")) { response in
                expectEqual(response.status, .ok)
                #expect(response.headers[.contentEncoding] == nil)
            }
        }
    }

    @Test func acceptEncodingIsReadWithItsQualities() {
        typealias Compression = CompressionMiddleware<HearthRequestContext>
        #expect(Compression.acceptsGzip(["gzip"]))
        #expect(Compression.acceptsGzip(["deflate", "GZIP ; q=0.5"]))
        #expect(Compression.acceptsGzip(["x-gzip"]))
        #expect(!Compression.acceptsGzip([]))
        #expect(!Compression.acceptsGzip(["gzip;q=0", "br"]))
        #expect(!Compression.acceptsGzip(["gzip;q=0.0"]))
        #expect(!Compression.acceptsGzip(["*;q=0"]))
        #expect(MediaType.isJSON("application/json; charset=utf-8"))
        #expect(MediaType.isJSON("application/problem+json"))
        #expect(!MediaType.isJSON("text/html"))
    }

    @Test func mediaTypesAreReadWithoutParametersCaseOrSpace() {
        expectEqual(MediaType.essence(of: " Application/JSON ; charset=utf-8"), "application/json")
        expectEqual(MediaType.essence(of: "\tapplication/problem+json"), "application/problem+json")
        expectEqual(MediaType.essence(of: ""), "")
        expectEqual(MediaType.essence(of: "   "), "")
        #expect(MediaType.isJSON("application/vnd.hearth+json; x=1"))
        #expect(!MediaType.isJSON("text/json-ish"))
        #expect(!MediaType.isJSON(nil))
        expectEqual(HTTPText.trimmed(" \tabc d\t "[...]), "abc d")
    }
}
