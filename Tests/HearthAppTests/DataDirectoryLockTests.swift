import Foundation
@testable import HearthApp
import HearthTestSupport
import Testing

@Suite struct DataDirectoryLockTests {
    @Test func onlyOneHolderAtATimeAndReleasedWithTheHolder() throws {
        let temporary = try TemporaryDirectory()
        let directory = temporary.url

        var first = try DataDirectoryLock.acquire(directory: directory)
        #expect(first != nil)
        #expect(try DataDirectoryLock.acquire(directory: directory) == nil, "a hub is serving: restore must refuse")
        first = nil
        #expect(try DataDirectoryLock.acquire(directory: directory) != nil, "released when the hub stops")
    }
}
