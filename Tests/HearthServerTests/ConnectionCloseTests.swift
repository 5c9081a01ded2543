import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HearthHubTestSupport
@testable import HearthServer
import HTTPTypes
import HearthTestSupport
import Testing

/// A client that asks for its connection to be closed is told, in the
/// answer, that it will be: libcurl (URLSession on Linux) otherwise keeps the
/// connection, reuses it as the hub closes it, and sends its next request
/// again without the body (a HearthKit sync hung 30 s that way).
@Suite struct ConnectionCloseTests {
    @Test func anAnswerToARequestThatAsksForCloseSaysCloseAndTheHubCloses() async throws {
        try await RunningHub.with { port, _, _, _ in
            for (path, status) in [("/api/v1/health", "200"), ("/api/v1/notes", "401"), ("/", "200")] {
                let client = try RawConnection(port: port)
                try client.send("GET \(path) HTTP/1.1\r\nHost: hub\r\nConnection: close\r\n\r\n")
                let answer = await client.readUntilClosed(for: 5)
                #expect(answer.hasPrefix("HTTP/1.1 \(status)"), "\(path): \(answer.prefix(120))")
                #expect(Self.head(of: answer).contains("connection: close"), "\(path): \(Self.head(of: answer))")
                #expect(client.closedByHub)
            }
        }
    }

    @Test func aConnectionKeptAliveIsNotToldToCloseAndServesTheNextRequest() async throws {
        try await RunningHub.with { port, _, _, _ in
            let client = try RawConnection(port: port)
            for _ in 0..<2 {
                try client.send("GET /api/v1/health HTTP/1.1\r\nHost: hub\r\n\r\n")
                let answer = await client.readResponse(for: 5)
                #expect(answer.hasPrefix("HTTP/1.1 200"))
                #expect(!Self.head(of: answer).contains("connection: close"))
            }
            #expect(!client.closedByHub)
        }
    }

    @Test(arguments: ["close", "Close", "keep-alive, close", "Upgrade,CLOSE"])
    func closeIsReadAsOneOfTheConnectionsOptionsInAnyCase(_ value: String) {
        var fields = HTTPFields()
        fields[.connection] = value
        #expect(ConnectionCloseMiddleware<HearthRequestContext>.asksToClose(fields))
    }

    @Test(arguments: ["keep-alive", "closed", "upgrade", ""])
    func otherOptionsDoNotAskToClose(_ value: String) {
        var fields = HTTPFields()
        fields[.connection] = value
        #expect(!ConnectionCloseMiddleware<HearthRequestContext>.asksToClose(fields))
    }

    /// URLSession on Linux, as HearthKit sends: a push after a pull, each
    /// asking for a fresh connection, many times over; every push's body
    /// reaches the hub (each answered well before its 5 s timeout).
    @Test func urlSessionsPushesAfterPullsEachArriveWhole() async throws {
        try await RunningHub.with { port, _, _, token in
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = 5
            let session = URLSession(configuration: configuration)
            let base = URL(string: "http://127.0.0.1:\(port)")!
            for round in 0..<40 {
                var pull = URLRequest(url: base.appendingPathComponent("api/v1/health"))
                pull.setValue("close", forHTTPHeaderField: "Connection")
                let (_, pulled) = try await session.data(for: pull)
                expectEqual((pulled as? HTTPURLResponse)?.value(forHTTPHeaderField: "Connection")?.lowercased(), "close")
                var push = URLRequest(url: base.appendingPathComponent("api/v1/sync"))
                push.httpMethod = "POST"
                push.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
                push.setValue("close", forHTTPHeaderField: "Connection")
                push.setValue("application/json", forHTTPHeaderField: "Content-Type")
                push.httpBody = Data(#"{"since": 0, "changes": []}"#.utf8)
                let (_, pushed) = try await session.data(for: push)
                let status = (pushed as? HTTPURLResponse)?.statusCode ?? 0
                expectEqual(status, 200, "round \(round): \(status)")
            }
            session.invalidateAndCancel()
        }
    }

    static func head(of answer: String) -> String {
        String(answer.split(separator: "\r\n\r\n", maxSplits: 1).first ?? "").lowercased()
    }
}
