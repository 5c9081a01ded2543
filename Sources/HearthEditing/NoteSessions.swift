import Foundation
import HearthStore
import Logging
import ServiceLifecycle

/// The notes open for editing: one `NoteSession` per note while anyone
/// edits it. A session is retired once its last editor leaves and its state
/// is written, and never while someone is joining, so two sessions of one
/// note never run side by side.
public actor NoteSessions {
    private let store: HearthStore
    private let logger: Logger
    /// The session of each open note, or its opening in progress.
    private var opening: [UUID: Task<NoteSession?, any Error>] = [:]
    private var editors: [ObjectIdentifier: Int] = [:]
    /// Joins in progress per note: a session is not retired under them.
    private var joining: [UUID: Int] = [:]

    public init(store: HearthStore, logger: Logger) {
        self.store = store
        self.logger = logger
    }

    /// The note's session, counting one more editor; nil when there is no
    /// such note. Balance with `leave`.
    public func join(_ noteId: UUID) async throws -> NoteSession? {
        joining[noteId, default: 0] += 1
        defer { joining[noteId, default: 1] -= 1 }
        // A session that broke is replaced once; a second broken one is a
        // database in trouble, which the caller reports.
        for _ in 0..<2 {
            let task = opening[noteId] ?? startOpening(noteId)
            let session: NoteSession?
            do {
                session = try await task.value
            } catch {
                if opening[noteId] == task { opening[noteId] = nil }
                throw error
            }
            guard let session else {
                if opening[noteId] == task { opening[noteId] = nil }
                return nil
            }
            if await session.isClosed {
                if opening[noteId] == task { opening[noteId] = nil }
                continue
            }
            editors[ObjectIdentifier(session), default: 0] += 1
            return session
        }
        return nil
    }

    private func startOpening(_ noteId: UUID) -> Task<NoteSession?, any Error> {
        let store = self.store, logger = self.logger
        let task = Task { try await NoteSession.open(noteId: noteId, store: store, logger: logger) }
        opening[noteId] = task
        return task
    }

    public func leave(_ noteId: UUID, _ session: NoteSession) async {
        let key = ObjectIdentifier(session)
        editors[key, default: 1] -= 1
        guard editors[key] == 0 else { return }
        await session.storeTextNow()
        await session.compact()
        // Someone may have come while the state was being written.
        guard editors[key] == 0, joining[noteId, default: 0] == 0 else { return }
        editors[key] = nil
        if let task = opening[noteId], (try? await task.value) === session, editors[key] == nil,
           joining[noteId, default: 0] == 0 {
            opening[noteId] = nil
        }
    }

    /// Closes every open note (the hub is stopping); editors reconnect later.
    public func closeAll() async {
        for task in opening.values {
            if let session = try? await task.value {
                await session.storeTextNow()
                await session.compact()
                await session.closeAll(code: 1001, reason: "hub stopping")
            }
        }
        opening = [:]
    }
}

/// A service of the hub's group, listed after the HTTP server so it is told
/// to stop first: every open note's state is written and its editors told
/// (1001), so the server's graceful shutdown is not held open by editors
/// who would otherwise type on.
extension NoteSessions: Service {
    public func run() async throws {
        try? await gracefulShutdown()
        await closeAll()
    }
}
