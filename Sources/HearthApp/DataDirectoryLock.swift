import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An exclusive `flock` on `hearth.lock` in the data directory, held by the
/// serving hub for as long as it runs. `hearth restore` takes the same lock,
/// so it cannot replace the database under a running hub, and a second hub
/// cannot serve the same data. The kernel drops the lock when the process
/// ends, however it ends, so unlike a pid file it is never stale.
public final class DataDirectoryLock: Sendable {
    public static let fileName = "hearth.lock"
    private let descriptor: Int32

    private init(descriptor: Int32) { self.descriptor = descriptor }

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

    deinit { close(descriptor) }
}
