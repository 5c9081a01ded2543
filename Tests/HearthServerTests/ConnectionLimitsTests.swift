import Foundation
import HearthHubTestSupport
@testable import HearthServer
import NIOCore
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// What one address may hold of the hub before a byte of a request is
/// read: a few dozen connections, each with ten seconds (here half of
/// one) to send its first request's head.
@Suite(.serialized) struct ConnectionLimitsTests {
    static let limits = ConnectionLimits(perAddress: 4, firstRequestWithin: .milliseconds(500))

    @Test func aRequestHeadThatNeverEndsIsAnswered408AndClosed() async throws {
        try await RunningHub.with(limits: Self.limits) { port, _, _, _ in
            // Given a client that sends half a head, then a byte now and then
            let slow = try RawConnection(port: port)
            try slow.send("GET /api/v1/health HTTP/1.1\r\nHost: hub\r\n")
            for _ in 0..<3 {
                try await Task.sleep(for: .milliseconds(250))
                try? slow.send("X")
            }
            // It is told why and closed, though it kept sending
            let answer = await slow.readUntilClosed(for: 3)
            #expect(answer.hasPrefix("HTTP/1.1 408"), "\(answer)")
            #expect(answer.contains("application/problem+json"))
            #expect(slow.closedByHub)
            // And one that sends nothing at all is closed too
            let silent = try RawConnection(port: port)
            #expect(await silent.readUntilClosed(for: 3).hasPrefix("HTTP/1.1 408"))
        }
    }

    /// Issue 38 #3: these got no answer and were held open for minutes; 64
    /// of them made the hub answer 429 to everything else from the address.
    @Test func aMalformedOrOversizedFirstHeadIsAnswered400Or431AndClosedAtOnce() async throws {
        // The household's deadline (10 s): the answers must not wait for it.
        try await RunningHub.with(limits: ConnectionLimits(perAddress: 4)) { port, _, _, _ in
            let manyHeaders = (0..<5_000).map { "X-\($0): y\r\n" }.joined()
            let cases: [(String, String)] = [
                ("GARBAGE \u{1}\u{2} NOT-HTTP\r\n\r\n", "HTTP/1.1 400"),
                ("GET / HTTP/1.1\r\nHost: hub\r\nX-Long: \(String(repeating: "a", count: 80 * 1024))\r\n\r\n", "HTTP/1.1 431"),
                ("GET / HTTP/1.1\r\nHost: hub\r\n\(manyHeaders)\r\n", "HTTP/1.1 431"),
            ]
            // More of them than the address may hold at once: each is closed, so none is held.
            for (request, status) in cases + cases {
                let started = ContinuousClock.now
                let client = try RawConnection(port: port)
                try? client.send(request)
                let answer = await client.readUntilClosed(for: 5)
                #expect(answer.hasPrefix(status), "\(request.prefix(40)): \(answer.prefix(200))")
                #expect(answer.contains("application/problem+json") && answer.contains("Connection: close"))
                #expect(client.closedByHub, "closed, not held")
                #expect(ContinuousClock.now - started < .seconds(3))
                client.close()
            }
            try await Task.sleep(for: .milliseconds(200))
            let next = try RawConnection(port: port)
            try next.send("GET /api/v1/health HTTP/1.1\r\nHost: hub\r\n\r\n")
            #expect(await next.readResponse(for: 3).hasPrefix("HTTP/1.1 200"), "the address was not used up")
        }
    }

    @Test func blankLinesAreNotAHeadAndDoNotStopTheDeadline() async throws {
        try await RunningHub.with(limits: Self.limits) { port, _, _, _ in
            // Blank lines before a request line are skipped by HTTP parsers:
            // the deadline once stopped at the first one, and the connection was held.
            let client = try RawConnection(port: port)
            try client.send("\r\n\r\n")
            for _ in 0..<3 {
                try await Task.sleep(for: .milliseconds(250))
                try? client.send("\r\n")
            }
            let answer = await client.readUntilClosed(for: 3)
            #expect(answer.hasPrefix("HTTP/1.1 408"), "\(answer)")
            #expect(client.closedByHub)
        }
    }

    @Test func aConnectionThatSentItsHeadInTimeIsNotHurried() async throws {
        try await RunningHub.with(limits: Self.limits) { port, _, _, _ in
            let client = try RawConnection(port: port)
            // The head arrives in pieces, the last one within the time
            try client.send("GET /api/v1/health HTTP/1.1\r\n")
            try await Task.sleep(for: .milliseconds(100))
            try client.send("Host: hub\r\n\r\n")
            #expect(await client.readResponse(for: 3).hasPrefix("HTTP/1.1 200"))
            // Later requests on the same connection keep the usual keep-alive time
            try await Task.sleep(for: .milliseconds(800))
            try client.send("GET /api/v1/health HTTP/1.1\r\nHost: hub\r\n\r\n")
            #expect(await client.readResponse(for: 3).hasPrefix("HTTP/1.1 200"))
        }
    }

    @Test func oneAddressHoldsAtMostItsShareOfConnections() async throws {
        try await RunningHub.with(limits: Self.limits) { port, _, _, _ in
            // Given four connections from this address, each answered once
            var held: [RawConnection] = []
            for _ in 0..<4 {
                let connection = try RawConnection(port: port)
                try connection.send("GET /api/v1/health HTTP/1.1\r\nHost: hub\r\n\r\n")
                #expect(await connection.readResponse(for: 3).hasPrefix("HTTP/1.1 200"))
                held.append(connection)
            }
            // When a fifth comes, it is told why and closed
            let fifth = try RawConnection(port: port)
            try? fifth.send("GET /api/v1/health HTTP/1.1\r\nHost: hub\r\n\r\n")
            let refused = await fifth.readUntilClosed(for: 3)
            #expect(refused.hasPrefix("HTTP/1.1 429"), "\(refused)")
            #expect(refused.contains(#""status":429"#))
            // And once one of the four leaves, another may come
            held.removeFirst().close()
            try await Task.sleep(for: .milliseconds(200))
            let next = try RawConnection(port: port)
            try next.send("GET /api/v1/health HTTP/1.1\r\nHost: hub\r\n\r\n")
            #expect(await next.readResponse(for: 3).hasPrefix("HTTP/1.1 200"))
            for connection in held + [next, fifth] { connection.close() }
        }
    }
}

/// A plain TCP connection to the hub on loopback, reading and writing raw
/// bytes: a client that does exactly what it is told, however wrong.
final class RawConnection: @unchecked Sendable {
    private let socket: Int32
    private(set) var closedByHub = false

    init(port: Int) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
    }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        guard Glibc.send(socket, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else { throw POSIXError(.EPIPE) }
    }

    /// Everything read until the hub closes the connection, or `seconds` pass.
    func readUntilClosed(for seconds: Double) async -> String {
        await read(for: seconds) { _ in false }
    }

    /// One response: read until its body (as long as Content-Length says) is in.
    func readResponse(for seconds: Double) async -> String {
        await read(for: seconds) { text in
            guard let end = text.range(of: "\r\n\r\n") else { return false }
            let head = text[..<end.lowerBound].lowercased()
            let length = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
            return text.utf8.count - text.utf8.distance(from: text.startIndex, to: end.upperBound) >= length
        }
    }

    /// Reads on a thread of its own. Waiting in poll() on one of Swift
    /// concurrency's threads (as many as the cores: two here) would hold back
    /// the hub the test is talking to, whose handlers run on the same few
    /// threads: a suspected cause of socket tests that hung on a busy machine.
    func read(for seconds: Double, until done: @escaping @Sendable (String) -> Bool) async -> String {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: self.readWaiting(for: seconds, until: done)) }
        }
    }

    private func readWaiting(for seconds: Double, until done: (String) -> Bool) -> String {
        var received: [UInt8] = []
        let deadline = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while Date() < deadline {
            var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { continue }
            let count = recv(socket, &buffer, buffer.count, 0)
            if count <= 0 {
                closedByHub = true
                break
            }
            received += buffer[0..<count]
            if done(String(decoding: received, as: UTF8.self)) { break }
        }
        return String(decoding: received, as: UTF8.self)
    }

    private var open = true

    func close() {
        guard open else { return }
        open = false
        Glibc.close(socket)
    }

    deinit { close() }
}
