import Foundation

/// A fresh directory per test, removed afterwards, so every test uses a real SQLite file.
public struct TemporaryDirectory: ~Copyable {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
