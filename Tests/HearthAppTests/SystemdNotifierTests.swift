import Foundation
@testable import HearthApp
import HearthTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The notifier against a real unix datagram socket, as systemd listens.
@Suite struct SystemdNotifierTests {
    /// A bound datagram socket standing in for systemd's notify socket.
    final class FakeSystemd: Sendable {
        let descriptor: Int32
        let name: String

        /// `abstract`: bind in the abstract namespace and name it `@…`, as systemd does.
        init(abstract: Bool) throws {
            descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            let unique = "hearth-notify-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            name = abstract ? "@" + unique : FileManager.default.temporaryDirectory.appendingPathComponent(unique).path
            var (address, length) = try #require(SystemdNotifier.address(name))
            let bound = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
            }
            try #require(bound == 0, "bind: \(String(cString: strerror(errno)))")
            // Generous: on two cores the suite's CPU-bound tests can hold both
            // cooperative threads long enough that the service's 20 ms sleep
            // ended over 10 s late (seen in full runs); only a failure waits this long.
            var timeout = timeval(tv_sec: 60, tv_usec: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }

        func receive() -> String? {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = recv(descriptor, &buffer, buffer.count, 0)
            return count < 0 ? nil : String(decoding: buffer[0..<count], as: UTF8.self)
        }

        /// `receive()` on a thread of its own: a blocking `recv` on one of
        /// the few cooperative threads could starve the very task that is
        /// meant to send (two cores: two threads).
        func receiveAside() async -> String? {
            await withCheckedContinuation { continuation in
                Thread { continuation.resume(returning: self.receive()) }.start()
            }
        }

        deinit {
            close(descriptor)
            if !name.hasPrefix("@") { unlink(name) }
        }
    }

    @Test(arguments: [false, true])
    func readyReachesTheNotifySocket(abstract: Bool) throws {
        let systemd = try FakeSystemd(abstract: abstract)
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": systemd.name])
        #expect(notifier.notify("READY=1\nSTATUS=Serving on port 8080"))
        expectEqual(systemd.receive(), "READY=1\nSTATUS=Serving on port 8080")
    }

    @Test func withoutNotifySocketNothingIsSentOrWatched() {
        let notifier = SystemdNotifier(environment: ["WATCHDOG_USEC": "30000000"])
        #expect(!notifier.isActive)
        #expect(!notifier.notify("READY=1"))
        #expect(notifier.watchdogInterval == nil)
    }

    @Test func theWatchdogIsFedAtHalfItsInterval() {
        let socket = ["NOTIFY_SOCKET": "@x"]
        #expect(SystemdNotifier(environment: socket.merging(["WATCHDOG_USEC": "30000000"]) { $1 }).watchdogInterval == .seconds(15))
        #expect(SystemdNotifier(environment: socket.merging(["WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "42"]) { $1 }, pid: 42)
            .watchdogInterval == .seconds(15))
        #expect(SystemdNotifier(environment: socket.merging(["WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "41"]) { $1 }, pid: 42)
            .watchdogInterval == nil, "the watchdog is another process's")
        #expect(SystemdNotifier(environment: socket.merging(["WATCHDOG_USEC": "soon"]) { $1 }).watchdogInterval == nil)
    }

    @Test func theServicePingsTheWatchdogUntilItStops() async throws {
        let systemd = try FakeSystemd(abstract: true)
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": systemd.name, "WATCHDOG_USEC": "40000"])
        let service = Task { try await SystemdNotifyService(notifier: notifier).run() }
        await expectEqual(systemd.receiveAside(), "WATCHDOG=1")
        await expectEqual(systemd.receiveAside(), "WATCHDOG=1", "pinged again after 20 ms")
        service.cancel()
        try await service.value
    }

    @Test func anOverlongSocketPathIsRefusedNotTruncated() {
        #expect(SystemdNotifier.address("/" + String(repeating: "a", count: 200)) == nil)
    }
}
