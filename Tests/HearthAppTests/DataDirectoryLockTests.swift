import Foundation
@testable import HearthApp
import Testing

@Suite struct DataDirectoryLockTests {
    @Test func onlyOneHolderAtATimeAndReleasedWithTheHolder() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-lock-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        var first = try DataDirectoryLock.acquire(directory: directory)
        #expect(first != nil)
        #expect(try DataDirectoryLock.acquire(directory: directory) == nil, "a hub is serving: restore must refuse")
        first = nil
        #expect(try DataDirectoryLock.acquire(directory: directory) != nil, "released when the hub stops")
    }
}
