import Foundation
import HearthStore

/// Opens the hub's database for the admin commands (`hearth pair`,
/// `devices`, `people`), whether or not `hearth serve` is running: SQLite in
/// WAL mode lets both write, and the running hub publishes what they change.
public enum AdminStore {
    public static func open(_ configuration: HubConfiguration) throws -> HearthStore {
        let directory = URL(fileURLWithPath: configuration.dataDirectory, isDirectory: true)
        // SQLite would open (and write into) whatever a planted symlink names.
        try DatabaseFileAccess.checkPlainFiles(directory)
        let store = try HearthStore(directory: directory)
        handFilesToDirectoryOwner(directory)
        DatabaseFileAccess.shareWithGroup(directory)
        return store
    }

    /// Run as root (`sudo hearth pair`), SQLite may create the WAL files as
    /// root, and the service's own user could then no longer write. Give
    /// them to whoever owns the data directory.
    static func handFilesToDirectoryOwner(_ directory: URL, names: [String] = [HearthStore.fileName]) {
        guard getuid() == 0, let owner = try? FileManager.default.attributesOfItem(atPath: directory.path),
              let uid = (owner[.ownerAccountID] as? NSNumber)?.uint32Value,
              let gid = (owner[.groupOwnerAccountID] as? NSNumber)?.uint32Value, uid != 0
        else { return }
        DatabaseFileAccess.giveFiles(directory, names: names, to: uid, gid)
    }
}
