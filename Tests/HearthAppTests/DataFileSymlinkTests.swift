import Foundation
@testable import HearthApp
import HearthStore
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
    static func plant(_ name: String) throws -> (directory: URL, target: String, cleanup: () -> Void) {
        let root = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("symlink-\(UUID().uuidString)")
        let directory = root.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        #expect(chown(directory.path, 4242, 4242) == 0)
        let target = root.appendingPathComponent("shadow").path
        #expect(FileManager.default.createFile(atPath: target, contents: Data("root:secret\n".utf8), attributes: [.posixPermissions: 0o600]))
        try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent(name).path, withDestinationPath: target)
        return (directory, target, { try? FileManager.default.removeItem(at: root) })
    }

    static func owner(_ path: String) -> (uid: uid_t, mode: mode_t) {
        var status = stat()
        _ = stat(path, &status)
        return (status.st_uid, status.st_mode & 0o7777)
    }

    @Test func handingFilesToTheServiceNeverFollowsASymlink() throws {
        let (directory, target, cleanup) = try Self.plant(HearthStore.fileName + "-wal")
        defer { cleanup() }
        AdminStore.handFilesToDirectoryOwner(directory)
        DatabaseFileAccess.shareWithGroup(directory)
        let after = Self.owner(target)
        #expect(after.uid == 0, "root's file was not given to the service's user")
        #expect(after.mode == 0o600, "nor opened to its group")
    }

    @Test func anAdminCommandRefusesADataDirectoryWithASymlinkAndTouchesNothing() async throws {
        // A sound backup to restore
        let elsewhere = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("backup-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: elsewhere) }
        let original = try HearthStore(directory: elsewhere)
        try await original.ensureHousehold(name: "Dom", timeZone: "Europe/Warsaw")
        let backup = elsewhere.appendingPathComponent("copy.sqlite")
        try original.backup(to: backup)
        try original.close()
        for name in [HearthStore.fileName, HearthStore.fileName + "-wal", HearthStore.fileName + "-shm", DataDirectoryLock.fileName] {
            let (directory, target, cleanup) = try Self.plant(name)
            defer { cleanup() }
            let configuration = try await HubConfiguration.load(flags: .init(dataDirectory: directory.path), environment: [:])
            #expect(throws: HubError.notAPlainFile(path: directory.appendingPathComponent(name).path)) {
                try AdminStore.open(configuration)
            }
            await #expect(throws: HubError.notAPlainFile(path: directory.appendingPathComponent(name).path)) {
                _ = try await HubBackup.restore(configuration, from: backup.path)
            }
            #expect(try String(contentsOfFile: target, encoding: .utf8) == "root:secret\n", "\(name): nothing written through it")
            #expect(Self.owner(target).uid == 0 && Self.owner(target).mode == 0o600, "\(name)")
        }
    }
}
