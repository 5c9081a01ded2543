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

    @Test func releasedOnceItNeverTouchesTheFileThatTookItsDescriptor() throws {
        let temporary = try TemporaryDirectory()
        var lock = try #require(try DataDirectoryLock.acquire(directory: temporary.url))
        lock.release()
        // The kernel hands the freed number to the next file opened: here, a
        // file standing in for the next hub's database.
        let other = open(temporary.path("hearth.sqlite").path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        defer { close(other) }
        expectEqual(pwrite(other, "data", 4, 0), 4)
        lock.withdraw()
        lock.release()
        lock = try #require(try DataDirectoryLock.acquire(directory: temporary.url), "released: another hub may take it")
        _ = lock
        var size = stat()
        expectEqual(fstat(other, &size), 0, "still open")
        expectEqual(size.st_size, 4, "not truncated by the released lock's withdraw")
    }
}
