import Foundation
import HearthCore

/// Fans committed changes out to live listeners.
///
/// Not an actor on purpose: `publish` is called synchronously on the
/// database writer's queue right after each commit, which is what keeps
/// listeners' changes in `seq` order. An actor hop would let two commits
/// arrive out of order.
public final class ChangeHub: Sendable {
    /// How many undelivered changes a listener may hold before it is closed
    /// and told to resync from its cursor.
    public static let defaultBufferLimit = 1024

    private struct Listener {
        let continuation: AsyncThrowingStream<Change, any Error>.Continuation
    }

    private struct State {
        var listeners: [UUID: Listener] = [:]
        var closed = false
        /// The newest seq handed to listeners; nothing at or below it is sent again.
        var lastPublished: Int64
        /// The newest seq of a change to a note (`lastNoteChange`).
        var lastNoteChange: Int64 = 0
    }

    private let state: Locked<State>

    public init(lastPublished: Int64 = 0) {
        state = Locked(State(lastPublished: lastPublished))
    }

    /// The newest seq already published.
    public var lastPublished: Int64 { state.withLock { $0.lastPublished } }

    /// The newest seq of a note's change published: who may open a note
    /// changes only with one. Note sessions compare it before relaying
    /// typing (which happens before the typing is stored), so they never
    /// relay on who-may-read as it was before a change already committed.
    public var lastNoteChange: Int64 { state.withLock { $0.lastNoteChange } }

    /// How many listeners are registered now.
    public var listenerCount: Int { state.withLock { $0.listeners.count } }

    /// Registers a listener; it receives every change published from now on.
    func register(bufferLimit: Int) -> LiveChanges {
        let id = UUID.random()
        let (stream, continuation) = AsyncThrowingStream<Change, any Error>.makeStream(
            bufferingPolicy: .bufferingOldest(max(1, bufferLimit))
        )
        continuation.onTermination = { [weak self] _ in self?.remove(id) }
        let accepted = state.withLock { state in
            guard !state.closed else { return false }
            state.listeners[id] = Listener(continuation: continuation)
            return true
        }
        if !accepted { continuation.finish() }
        return LiveChanges(stream: stream, cancel: { continuation.finish() })
    }

    /// Delivers committed changes, in commit order, skipping any already
    /// published. A listener whose buffer is full is closed with
    /// `ChangeHubError.fellBehind`. Called only on the database writer's queue.
    func publish(_ committed: [Change]) {
        let (listeners, changes) = state.withLock { state in
            let fresh = committed.filter { $0.seq > state.lastPublished }
            if let last = fresh.last { state.lastPublished = last.seq }
            if let note = fresh.last(where: { $0.entity == .note }) { state.lastNoteChange = note.seq }
            return (Array(state.listeners.values), fresh)
        }
        guard !changes.isEmpty else { return }
        for listener in listeners {
            for change in changes {
                if case .dropped = listener.continuation.yield(change) {
                    listener.continuation.finish(throwing: ChangeHubError.fellBehind)
                    break
                }
            }
        }
    }

    /// Ends every subscription; used when the hub shuts down.
    public func closeAll() {
        let listeners = state.withLock { state in
            state.closed = true
            defer { state.listeners.removeAll() }
            return Array(state.listeners.values)
        }
        for listener in listeners { listener.continuation.finish() }
    }

    private func remove(_ id: UUID) {
        _ = state.withLock { $0.listeners.removeValue(forKey: id) }
    }
}

/// Why a subscription ended early.
public enum ChangeHubError: Error, Sendable, Equatable {
    /// The listener did not keep up; it should reconnect with its last `seq`.
    case fellBehind
}

/// The live half of a subscription: what the hub publishes after registration.
struct LiveChanges: Sendable {
    let stream: AsyncThrowingStream<Change, any Error>
    let cancel: @Sendable () -> Void
}
