import Foundation
import HearthStore

/// The work behind `hearth backup` and `hearth restore`.
public enum HubBackup {
    /// Copies the hub's database into `file` while the hub may be serving;
    /// returns the line to print.
    public static func backup(_ configuration: HubConfiguration, to file: String) throws -> String {
        let directory = URL(fileURLWithPath: configuration.dataDirectory, isDirectory: true)
        guard FileManager.default.fileExists(atPath: directory.appendingPathComponent(HearthStore.fileName).path) else {
            throw HubError.noDatabase(directory: directory.path)
        }
        let destination = URL(fileURLWithPath: file)
        let store = try AdminStore.open(configuration)
        defer { try? store.close() }
        try store.backup(to: destination)
        return "Backed up \(directory.path) to \(destination.path) (integrity check: ok)\n"
    }

    /// Replaces the hub's database with the backup in `file`, keeping the
    /// previous one as `hearth.sqlite.bak`; refuses while a hub serves the
    /// data directory. Returns the line to print.
    public static func restore(_ configuration: HubConfiguration, from file: String) async throws -> String {
        let directory = URL(fileURLWithPath: configuration.dataDirectory, isDirectory: true)
        let source = URL(fileURLWithPath: file)
        // Checked before anything is created, so a mistyped name changes nothing.
        try HearthStore.verifyBackup(at: source)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try DatabaseFileAccess.checkPlainFiles(directory, extra: [HearthStore.fileName + HearthStore.previousFileSuffix])
        // Held while the files are replaced, so a hub cannot start meanwhile.
        guard let lock = try DataDirectoryLock.acquire(directory: directory) else {
            throw HubError.hubIsServing(directory: directory.path)
        }
        defer { withExtendedLifetime(lock) {} }
        let hadDatabase = FileManager.default.fileExists(atPath: directory.appendingPathComponent(HearthStore.fileName).path)
        // A phone removed after the backup (lost, stolen) must not come back with it.
        let removed = try HearthStore.revokedDevices(in: directory)
        try HearthStore.restore(from: source, into: directory)
        let store = try HearthStore(directory: directory)
        let keptRemoved = try await store.keepRevoked(removed, as: .restore, by: "restore")
        try store.close()
        // Run as root on the service's data: the files go back to the
        // service's user, and to the group as `serve` would share them.
        AdminStore.handFilesToDirectoryOwner(directory, names: [
            HearthStore.fileName, HearthStore.fileName + HearthStore.previousFileSuffix, DataDirectoryLock.fileName,
        ])
        DatabaseFileAccess.shareWithGroup(directory)
        let kept = hadDatabase ? "; the previous database is kept as \(HearthStore.fileName)\(HearthStore.previousFileSuffix)" : ""
        let stillRemoved = keptRemoved > 0 ? "; \(keptRemoved) device\(keptRemoved == 1 ? "" : "s") removed since the backup stay\(keptRemoved == 1 ? "s" : "") removed" : ""
        return "Restored \(source.path) into \(directory.path)\(kept)\(stillRemoved)\n"
    }
}
