import Foundation
import HearthStore
#if canImport(Glibc)
import Glibc
#endif

/// Who may open the database files.
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
public enum DatabaseFileAccess {
    public static let mode: mode_t = 0o660

    /// Gives the group read and write on the database files this process owns
    /// (root may change any), and takes every right away from other users.
    public static func shareWithGroup(_ directory: URL) {
        for suffix in ["", "-wal", "-shm"] {
            let path = directory.appendingPathComponent(HearthStore.fileName + suffix).path
            var status = stat()
            guard stat(path, &status) == 0, getuid() == 0 || status.st_uid == getuid(),
                  status.st_mode & 0o777 != mode else { continue }
            _ = chmod(path, mode)
        }
    }
}
