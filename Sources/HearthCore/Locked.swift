import Foundation

/// A value shared between threads and tasks, reached only while holding its
/// lock.
///
/// The hub's targets once used Synchronization's `Mutex`, but that needs
/// macOS 15 and iOS 18, and the package, which also ships HearthKit to apps,
/// promises macOS 14 and iOS 17. `NSLock` is a pthread mutex everywhere; the
/// cost over `Mutex` is one object per guard and a call, small beside the
/// SQLite work each guarded step sits next to.
public final class Locked<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `value` is read and written only inside `withLock`, while
    // `lock` is held, and `Value` is Sendable, so what leaves the lock is safe
    // to hand to another thread.
    private var value: Value
    private let lock = NSLock()

    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, holding the lock; keep `body` short and
    /// never suspend or take another `Locked` inside it.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
