import Foundation

/// A fresh directory per test, removed afterwards, so every test uses a real
/// SQLite file. The one way the tests make a place for their files.
public struct TemporaryDirectory: ~Copyable {
    public let url: URL

    /// `inMemory`: under /dev/shm when the machine has it, for tests that
    /// commit thousands of times (a month of reminders); the files are as
    /// real, the disk is not waited on.
    public init(inMemory: Bool = false) throws {
        let base = inMemory && FileManager.default.fileExists(atPath: "/dev/shm")
            ? URL(fileURLWithPath: "/dev/shm", isDirectory: true)
            : FileManager.default.temporaryDirectory
        url = base.appendingPathComponent("hearth-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A file or directory name inside it.
    public func path(_ name: String) -> URL {
        url.appendingPathComponent(name)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
