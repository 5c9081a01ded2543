import Foundation
import HearthStore
import Logging

/// The notes Notek clients have open: one `NotekBridge` per note while any
/// Notek client uses it. A bridge is finished (it leaves the note's session)
/// once its last client is gone, and a new one for the same note starts only
/// after that, so two bridges never give one character two positions.
public actor NotekBridges {
    private struct Entry {
        public let opening: Task<NotekBridge?, Never>
        public var users: Int
    }

    private let store: HearthStore
    private let sessions: NoteSessions
    private let logger: Logger
    private var entries: [UUID: Entry] = [:]
    private var finishing: [UUID: Task<Void, Never>] = [:]
    /// Every Notek connection's outbound queue, to close them when the hub stops.
    private var connections: [UUID: AsyncStream<NotekBridge.Outbound>.Continuation] = [:]
    private var stopping = false

    public init(store: HearthStore, sessions: NoteSessions, logger: Logger) {
        self.store = store
        self.sessions = sessions
        self.logger = logger
    }

    /// The note's bridge, counting one more user; nil when the note cannot
    /// be opened. Balance with `release`.
    public func acquire(_ noteId: UUID) async -> NotekBridge? {
        guard !stopping else { return nil }
        while entries[noteId] == nil, let previous = finishing[noteId] {
            await previous.value
            if finishing[noteId] == previous { finishing[noteId] = nil }
        }
        guard !stopping else { return nil }
        if entries[noteId] == nil {
            let store = self.store, sessions = self.sessions, logger = self.logger
            entries[noteId] = Entry(opening: Task { await NotekBridge.open(noteId: noteId, sessions: sessions, store: store, logger: logger) },
                                    users: 0)
        }
        entries[noteId]?.users += 1
        guard let opening = entries[noteId]?.opening else { return nil }
        guard let bridge = await opening.value else {
            if entries[noteId]?.opening == opening {
                entries[noteId]?.users -= 1
                if entries[noteId]?.users ?? 0 <= 0 { entries[noteId] = nil }
            }
            return nil
        }
        return bridge
    }

    /// One user less; the last one finishes the bridge.
    public func release(_ bridge: NotekBridge) async {
        let noteId = bridge.noteId
        guard var entry = entries[noteId], await entry.opening.value === bridge, let current = entries[noteId],
              current.opening == entry.opening else { return }
        entry = current
        entry.users -= 1
        guard entry.users <= 0 else {
            entries[noteId] = entry
            return
        }
        entries[noteId] = nil
        let opening = entry.opening
        finishing[noteId] = Task { await opening.value?.finish() }
    }

    /// A bridge that stopped (its note's session ended) is not handed out again.
    public func forget(_ bridge: NotekBridge) async {
        guard let entry = entries[bridge.noteId], await entry.opening.value === bridge,
              entries[bridge.noteId]?.opening == entry.opening else { return }
        entries[bridge.noteId] = nil
        finishing[bridge.noteId] = Task { await bridge.finish() }
    }

    /// The note's bridge when one is open, without counting a user.
    public func existing(_ noteId: UUID) async -> NotekBridge? {
        await entries[noteId]?.opening.value
    }

    /// Counts a connection in; false when the hub is stopping.
    public func connected(_ id: UUID, _ outbound: AsyncStream<NotekBridge.Outbound>.Continuation) -> Bool {
        guard !stopping else { return false }
        connections[id] = outbound
        return true
    }

    public func disconnected(_ id: UUID) { connections[id] = nil }

    /// Finishes every bridge and closes every connection (the hub is stopping).
    public func closeAll() async {
        stopping = true
        for outbound in connections.values { outbound.yield(.close(code: 1001, reason: "hub stopping")) }
        connections = [:]
        let open = entries.values.map(\.opening)
        entries = [:]
        for opening in open { await opening.value?.finish() }
        // Bridges finishing already (their last client left) are waited for too.
        for task in finishing.values { await task.value }
        finishing = [:]
    }
}
