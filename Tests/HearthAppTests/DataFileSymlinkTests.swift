import Foundation
@testable import HearthApp
import HearthStore
import HearthTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The data directory belongs to the service's user; `sudo hearth pair`,
/// `devices`, `backup` and `restore` run as root in it. A symlink planted
/// where a database file belongs must never make root change, or SQLite
/// write into, the file it points at. Needs root, as those commands do
/// (the tests run as root here and in CI).
@Suite(.serialized, .enabled(if: getuid() == 0, "root-run commands are tested as root"))
struct DataFileSymlinkTests {
    /// A data directory owned by another user, and a root-owned 0600 file
    /// outside it standing in for /etc/shadow.
    static func plant(_ name: String, in root: borrowing TemporaryDirectory) throws -> (directory: URL, target: String) {
        let directory = root.path("data")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        expectEqual(chown(directory.path, 4242, 4242), 0)
        let target = root.path("shadow").path
        #expect(FileManager.default.createFile(atPath: target, contents: Data("root:secret\n".utf8), attributes: [.posixPermissions: 0o600]))
        try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent(name).path, withDestinationPath: target)
        return (directory, target)
    }

    static func owner(_ path: String) -> (uid: uid_t, mode: mode_t) {
        var status = stat()
        _ = stat(path, &status)
        return (status.st_uid, status.st_mode & 0o7777)
    }

    @Test func handingFilesToTheServiceNeverFollowsASymlink() throws {
        let root = try TemporaryDirectory()
        let (directory, target) = try Self.plant(HearthStore.fileName + "-wal", in: root)
        AdminStore.handFilesToDirectoryOwner(directory)
        DatabaseFileAccess.shareWithGroup(directory)
        let after = Self.owner(target)
        expectEqual(after.uid, 0, "root's file was not given to the service's user")
        expectEqual(after.mode, 0o600, "nor opened to its group")
    }

    /// POSIX locks belong to the process, and closing any descriptor of a
    /// file drops them all: SQLite's locks on the database are how `hearth
    /// pair` and the running hub know of each other, and without them the
    /// command deleted the WAL the hub was writing. Handing the files over
    /// must leave this process's locks where they were.
    @Test func handingFilesOverKeepsThisProcessesLocks() throws {
        let temporary = try TemporaryDirectory()
        let directory = temporary.url
        expectEqual(chown(directory.path, 4242, 4242), 0)
        let path = directory.appendingPathComponent(HearthStore.fileName + "-shm").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(count: 64)))
        let descriptor = open(path, O_RDWR)
        defer { close(descriptor) }
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = 8
        lock.l_len = 1
        expectEqual(fcntl(descriptor, F_SETLK, &lock), 0)
        var status = stat()
        _ = stat(path, &status)
        expectEqual(Self.locksHeld(onInode: status.st_ino), 1)

        AdminStore.handFilesToDirectoryOwner(directory)
        DatabaseFileAccess.shareWithGroup(directory)

        expectEqual(Self.owner(path).uid, 4242, "the file was handed over")
        expectEqual(Self.locksHeld(onInode: status.st_ino), 1, "and this process still holds its lock on it")
    }

    /// This process's POSIX locks on the inode, as /proc/locks lists them.
    static func locksHeld(onInode inode: ino_t) -> Int {
        // Read to the end: String(contentsOfFile:) stopped after the first
        // part of a long /proc/locks (another process holding 384 locks), and
        // this process's lock was not in it.
        let contents = (try? FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/locks")).readToEnd()) ?? Data()
        let lines = String(decoding: contents, as: UTF8.self).split(separator: "\n")
        return lines.filter { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            // "1: POSIX  ADVISORY  WRITE 1234 08:01:5678 8 8"
            guard fields.count >= 6, fields[1] == "POSIX", fields[4] == "\(getpid())" else { return false }
            return fields[5].split(separator: ":").last.map(String.init) == "\(inode)"
        }.count
    }

    @Test func anAdminCommandRefusesADataDirectoryWithASymlinkAndTouchesNothing() async throws {
        // A sound backup to restore
        let temporary = try TemporaryDirectory()
        let elsewhere = temporary.url
        let original = try HearthStore(directory: elsewhere)
        try await original.ensureHousehold(name: "Dom", timeZone: "Europe/Warsaw")
        let backup = elsewhere.appendingPathComponent("copy.sqlite")
        try original.backup(to: backup)
        try original.close()
        for name in [HearthStore.fileName, HearthStore.fileName + "-wal", HearthStore.fileName + "-shm", DataDirectoryLock.fileName] {
            let root = try TemporaryDirectory()
            let (directory, target) = try Self.plant(name, in: root)
            let configuration = try await HubConfiguration.load(flags: .init(dataDirectory: directory.path), environment: [:])
            #expect(throws: HubError.notAPlainFile(path: directory.appendingPathComponent(name).path)) {
                try AdminStore.open(configuration)
            }
            await #expect(throws: HubError.notAPlainFile(path: directory.appendingPathComponent(name).path)) {
                _ = try await HubBackup.restore(configuration, from: backup.path)
            }
            try expectEqual(String(contentsOfFile: target, encoding: .utf8), "root:secret\n", "\(name): nothing written through it")
            #expect(Self.owner(target).uid == 0 && Self.owner(target).mode == 0o600, "\(name)")
        }
    }
}
