import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Tells systemd how the hub is doing (`Type=notify`): the `sd_notify`
/// protocol is one datagram of `KEY=value` lines to the unix socket named by
/// `$NOTIFY_SOCKET`, so it is written here rather than linking libsystemd.
/// Without `$NOTIFY_SOCKET` (a hub started by hand, or in tests) it does nothing.
public struct SystemdNotifier: Sendable {
    /// The socket's path; a leading `@` names a socket in the abstract namespace.
    public let socketPath: String?
    /// Half of the unit's `WatchdogSec`, when systemd watches this process.
    public let watchdogInterval: Duration?

    public init(environment: [String: String] = ProcessInfo.processInfo.environment, pid: Int32 = getpid()) {
        let path = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        socketPath = path
        watchdogInterval = Self.watchdogInterval(environment: environment, pid: pid, hasSocket: path != nil)
    }

    /// `$WATCHDOG_USEC` is meant for `$WATCHDOG_PID` when that is set (a
    /// child of the service must not answer for it); systemd expects a ping
    /// within the interval, and pinging at half of it leaves room for a slow moment.
    static func watchdogInterval(environment: [String: String], pid: Int32, hasSocket: Bool) -> Duration? {
        guard hasSocket, let text = environment["WATCHDOG_USEC"], let microseconds = UInt64(text), microseconds > 0 else {
            return nil
        }
        if let owner = environment["WATCHDOG_PID"], Int32(owner) != pid { return nil }
        return .microseconds(Int64(clamping: microseconds / 2))
    }

    public var isActive: Bool { socketPath != nil }

    /// Sends `state` (e.g. `READY=1`); returns whether systemd's socket took it.
    /// Failures are not errors for the hub: it keeps serving either way.
    @discardableResult
    public func notify(_ state: String) -> Bool {
        guard let socketPath, var address = Self.address(socketPath) else { return false }
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        let bytes = Array(state.utf8)
        let sent = withUnsafePointer(to: &address.storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bytes.withUnsafeBytes { buffer in
                    sendto(descriptor, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL), socketAddress, address.length)
                }
            }
        }
        return sent == bytes.count
    }

    /// A `sockaddr_un` for `path`, with the length the kernel should read:
    /// an abstract name (`@name`) starts with a zero byte and has no
    /// terminator, so its length counts exactly its bytes.
    static func address(_ path: String) -> (storage: sockaddr_un, length: socklen_t)? {
        var storage = sockaddr_un()
        storage.sun_family = sa_family_t(AF_UNIX)
        var name = Array(path.utf8)
        let isAbstract = name.first == UInt8(ascii: "@")
        if isAbstract { name[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: storage.sun_path)
        // A filesystem path needs room for its terminating zero.
        guard !name.isEmpty, name.count <= (isAbstract ? capacity : capacity - 1) else { return nil }
        withUnsafeMutableBytes(of: &storage.sun_path) { buffer in
            buffer.copyBytes(from: name)
        }
        let offset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path) ?? 2
        let length = offset + name.count + (isAbstract ? 0 : 1)
        return (storage, socklen_t(length))
    }
}
