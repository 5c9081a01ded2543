import Foundation
import HearthStore
#if canImport(Glibc)
import Glibc
#endif

/// Who may open the database files, and changing that safely as root.
///
/// The packaged service runs with `UMask=0077`, so everything it creates is
/// private to the `hearth` user — except the database itself, on purpose:
/// an admin in the `hearth` group must be able to run `hearth pair`,
/// `devices` and `backup` against the running hub, and SQLite in WAL mode
/// needs write access to `hearth.sqlite-wal` and `-shm` even to read. So the
/// hub makes `hearth.sqlite`, `-wal` and `-shm` 0660 after opening them.
/// SQLite creates later `-wal`/`-shm` files with the main file's mode
/// (whatever the umask), so this holds for as long as the files exist. The
/// data directory stays 0750: the group can use the files but not add or
/// remove any, and other users cannot reach them at all.
///
/// The directory is the service user's to write. Were the service ever
/// taken over, it could put a symlink where a database file belongs
/// (`hearth.sqlite-wal -> /etc/shadow`), and `sudo hearth pair` would then
/// change, or SQLite write into, whatever it points at. So a command run as
/// root refuses a data directory whose files are not plain files, and
/// changes owner and mode only through a descriptor opened with
/// `O_NOFOLLOW` and checked to be a plain file, never by name.
///
/// That descriptor is an `O_PATH` one, on purpose: closing an ordinary
/// descriptor of a file drops every POSIX lock the process holds on it, and
/// SQLite's locks on `hearth.sqlite` and `-shm` are how a second process
/// (`hearth pair` beside the running hub) knows the other is there. With
/// them gone, the last to close deletes a WAL the other still uses.
public enum DatabaseFileAccess {
    public static let mode: mode_t = 0o660

    /// Every file a command run as root may open or change in the data directory.
    static func names(_ extra: [String] = []) -> [String] {
        ([HearthStore.fileName] + extra).flatMap { [$0, $0 + "-wal", $0 + "-shm", $0 + "-journal"] }
            + [DataDirectoryLock.fileName]
    }

    /// Refuses when any of the data directory's files is there but not a
    /// plain file, before root opens anything in it.
    public static func checkPlainFiles(_ directory: URL, extra: [String] = []) throws {
        for name in names(extra) {
            let path = directory.appendingPathComponent(name).path
            var status = stat()
            guard lstat(path, &status) == 0 else { continue }  // absent is fine
            guard status.st_mode & S_IFMT == S_IFREG else {
                throw HubError.notAPlainFile(path: path)
            }
        }
    }

    /// Gives the group read and write on the database files this process owns
    /// (root may change any), and takes every right away from other users.
    public static func shareWithGroup(_ directory: URL) {
        for suffix in ["", "-wal", "-shm"] {
            let path = directory.appendingPathComponent(HearthStore.fileName + suffix).path
            withPlainFile(path) { descriptor, status in
                guard getuid() == 0 || status.st_uid == getuid(), status.st_mode & 0o777 != mode else { return }
                _ = chmod(procLink(descriptor), mode)
            }
        }
    }

    /// Gives `names` (each with its `-wal`, `-shm`) to `uid`:`gid`, through
    /// descriptors that never follow a symlink.
    static func giveFiles(_ directory: URL, names: [String], to uid: uid_t, _ gid: gid_t) {
        for name in names {
            for suffix in ["", "-wal", "-shm"] {
                withPlainFile(directory.appendingPathComponent(name + suffix).path) { descriptor, _ in
                    _ = chown(procLink(descriptor), uid, gid)
                }
            }
        }
    }

    /// An `O_PATH` descriptor takes no `fchmod` or `fchown`; its link in
    /// /proc names exactly the file it was opened on, never a symlink put in
    /// its place since.
    static func procLink(_ descriptor: Int32) -> String { "/proc/self/fd/\(descriptor)" }

    /// Linux's `O_PATH` (the same on x86-64 and ARM), which Glibc's Swift
    /// module leaves out as it is a GNU extension.
    static let openPathOnly: Int32 = 0o10000000

    /// Runs `body` with the file at `path` opened as a path only (no read,
    /// no write, no lock dropped on close) without following a symlink, if
    /// it is a plain file.
    static func withPlainFile(_ path: String, _ body: (Int32, stat) -> Void) {
        let descriptor = open(path, openPathOnly | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return }
        body(descriptor, status)
    }
}
