import Foundation
import HearthCore
#if canImport(Glibc)
import Glibc
#endif

/// An exclusive `flock` on `hearth.lock` in the data directory, held by the
/// serving hub for as long as it runs. `hearth restore` takes the same lock,
/// so it cannot replace the database under a running hub, and a second hub
/// cannot serve the same data. The kernel drops the lock when the process
/// ends, however it ends, so unlike a pid file it is never stale.
///
/// Once listening, the hub writes its port into the file (`port=8080`), so
/// `sudo hearth pair` prints the address the hub really serves on, however
/// that port was chosen (`serve --port`, the environment, the file).
public final class DataDirectoryLock: Sendable {
    public static let fileName = "hearth.lock"
    /// The lock file's descriptor while the lock is held; nil once released,
    /// so nothing touches a number the process may since have reused.
    private let descriptor: Locked<Int32?>

    private init(descriptor: Int32) { self.descriptor = Locked(descriptor) }

    /// Takes the lock, or returns nil when another process holds it.
    /// Throws when the lock file cannot be opened at all.
    public static func acquire(directory: URL) throws -> DataDirectoryLock? {
        let path = directory.appendingPathComponent(fileName).path
        // Readable by the group so an admin in `hearth` can also test the
        // lock; it holds no data.
        // Never through a symlink: `hearth restore` takes this lock as root.
        var descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o640)
        if descriptor < 0, errno == EACCES { descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC) }
        guard descriptor >= 0 else {
            throw HubError.cannotLock(path: path, reason: String(cString: strerror(errno)))
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let failure = errno
            close(descriptor)
            if failure == EWOULDBLOCK { return nil }
            throw HubError.cannotLock(path: path, reason: String(cString: strerror(failure)))
        }
        return DataDirectoryLock(descriptor: descriptor)
    }

    /// Says, in the lock file, which port the hub listens on.
    public func announce(port: Int) {
        let text = Array("port=\(port)\n".utf8)
        descriptor.withLock { descriptor in
            guard let descriptor, ftruncate(descriptor, 0) == 0 else { return }
            _ = text.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        }
    }

    /// Clears the port, as the hub stops.
    public func withdraw() {
        descriptor.withLock { descriptor in
            if let descriptor { _ = ftruncate(descriptor, 0) }
        }
    }

    /// Lets the lock go before the process ends (a hub built and closed in
    /// one process, as the tests do); once, whoever calls it again.
    public func release() {
        descriptor.withLock { descriptor in
            if let open = descriptor { close(open) }
            descriptor = nil
        }
    }

    /// The port a hub serving `directory` announced; nil when none did (it
    /// is not running, or never got so far). Read without following a symlink.
    public static func announcedPort(directory: URL) -> Int? {
        let descriptor = open(directory.appendingPathComponent(fileName).path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        var bytes = [UInt8](repeating: 0, count: 64)
        let count = read(descriptor, &bytes, bytes.count)
        guard count > 0 else { return nil }
        let text = String(decoding: bytes[0..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("port="), let port = Int(text.dropFirst("port=".count)), (1...65_535).contains(port) else { return nil }
        return port
    }

    deinit { release() }
}
