import Foundation
import HearthCore
import HearthCRDT
import HearthNotek
import HearthStore
import Logging

/// One note as Notek clients edit it. The bridge joins the note's editing
/// session as one more editor on behalf of every Notek client of the note,
/// keeps the note's `NotekMirror` (a CRDT replica with a Notek position for
/// each character), and translates both ways:
/// - a Notek insert or delete becomes a CRDT operation; the position is
///   stored, the operation goes to the session, and once the session has
///   stored it (its acknowledgement) the edit is relayed to the note's
///   other Notek clients;
/// - operations the session relays (web editors', already stored) get
///   positions, which are stored, then go to every Notek client.
///
/// Everything runs one item at a time in arrival order on one task: an
/// operation must reach the session in counter order, and a position must be
/// stored before anyone hears of it.
public final class NotekBridge: Sendable {
    /// What a Notek connection is told.
    public enum Outbound: Sendable {
        case send(NotekMessage)
        case close(code: UInt16, reason: String)
    }

    /// A Notek client's edit, with the site it came from.
    public enum ClientEdit: Sendable {
        case insert(site: UInt8, atom: NotekAtom)
        case delete(site: UInt8, position: PositionID)
    }

    /// What became of edits handed to the note.
    public enum Outcome: Sendable {
        case stored
        /// The note would hold more than 1 MiB of text; nothing was taken.
        case tooLarge
        /// The hub could not store them; the note's Notek clients were closed.
        case failed
        /// A position with no room next to it (nothing could ever be typed
        /// there); nothing was taken.
        case cramped
    }

    /// How a client of the note speaks: legacy clients get 0x02/0x03,
    /// current ones 65/66.
    public enum ClientKind: Sendable {
        case legacy
        case session
    }

    fileprivate enum Work: Sendable {
        case fromSession(NoteSession.Outbound)
        case attach(UUID, ClientKind, AsyncStream<Outbound>.Continuation, catchUp: CatchUp, done: CheckedContinuation<UInt8?, Never>)
        case detach(UUID)
        case edits([ClientEdit], from: UUID?, done: CheckedContinuation<Outcome, Never>?)
        case rename(String, from: UUID)
        /// The note's title as a change published it (a rename on the web).
        case titled(String)
        case snapshot(CheckedContinuation<(atoms: [NotekAtom], deleted: [PositionID])?, Never>)
        case finish
    }

    /// What a client joining an editing session is sent first.
    public enum CatchUp: Sendable {
        /// A legacy client: NewSession with every character.
        case newSession
        /// A current client: the note's characters as inserts, and when it
        /// had synced before, its deleted characters as deletes.
        case characters(withDeletes: Bool)
        case nothing
    }

    public static let actor = PermissionPolicy.Actor(personId: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)), role: .caregiver)
    public static let actorName = "notek"

    public let noteId: UUID
    private let works: AsyncStream<Work>.Continuation
    private let loop: Task<Void, Never>

    /// Joins the note's session and reads its positions; nil when the note
    /// cannot be opened (gone, or the database failed — logged).
    public static func open(noteId: UUID, sessions: NoteSessions, store: HearthStore, logger: Logger) async -> NotekBridge? {
        let session: NoteSession
        do {
            guard let joined = try await sessions.join(noteId) else { return nil }
            session = joined
        } catch {
            logger.error("notek could not open a note", metadata: ["note": "\(noteId)", "error": "\(error)"])
            return nil
        }
        let editorId = UUID.random()
        guard let queue = await session.join(editorId, name: "Notek", actor: Self.actor, actorName: Self.actorName,
                                                relay: .afterStoring) else {
            await sessions.leave(noteId, session)
            return nil
        }
        // Renames made anywhere reach the note's Notek editors as name changes.
        let renames = try? await store.subscribe(after: try await store.latestSeq(), where: { change in
            change.entity == .note && change.entityId == noteId.text
        })
        let (readiness, ready) = AsyncStream.makeStream(of: Bool.self)
        let bridge = NotekBridge(noteId: noteId, store: store, logger: logger, session: session, editorId: editorId,
                                 sessionQueue: queue, renames: renames, sessions: sessions, ready: ready)
        // The session answers hello from nothing with the whole state, then synced.
        _ = await session.receive(.hello(VersionVector([:])), from: editorId)
        for await started in readiness {
            if started { return bridge }
            break
        }
        await bridge.loop.value
        return nil
    }

    private init(noteId: UUID, store: HearthStore, logger: Logger, session: NoteSession, editorId: UUID,
                 sessionQueue: AsyncStream<NoteSession.Outbound>, renames: ChangeSubscription?, sessions: NoteSessions,
                 ready: AsyncStream<Bool>.Continuation) {
        self.noteId = noteId
        let (stream, works) = AsyncStream.makeStream(of: Work.self)
        self.works = works
        // The session's messages join the same queue as the clients'.
        let forwarder = Task {
            for await item in sessionQueue { works.yield(.fromSession(item)) }
        }
        let titles = Task {
            guard let renames else { return }
            do {
                for try await change in renames {
                    // A note made private or moved to Trash closes the
                    // bridge (the session drops it as an editor); a rename
                    // goes to Notek clients only while the note is shared
                    // both in that change and now (NoteAccess).
                    await session.recheck()
                    guard change.payload.field("visibility") == .string(Note.Visibility.shared.rawValue),
                          change.payload.field("deletedAt") == .null,
                          case .string(let title)? = change.payload.field("title"),
                          let now = try await store.noteAccess(id: noteId), now.letsEdit(Self.actor) else { continue }
                    works.yield(.titled(title))
                }
            } catch {}
        }
        loop = Task {
            var state = State(noteId: noteId, store: store, logger: logger, session: session, editorId: editorId)
            var text: NoteText?
            var started = false
            for await work in stream {
                if !started {
                    // Until the note's state is in: its state, then synced.
                    switch work {
                    case .fromSession(.send(.state(let bytes), _)):
                        text = try? NoteText.decodeState(bytes, replica: ReplicaRange.random())
                        continue
                    case .fromSession(.send(.synced, _)):
                        if let text {
                            do {
                                try await state.start(text: text)
                                started = true
                                ready.yield(true)
                                continue
                            } catch {
                                logger.error("notek could not position a note's characters", metadata: ["note": "\(noteId)", "error": "\(error)"])
                            }
                        }
                    case .fromSession(.send), .titled:
                        continue  // start() reads the title itself
                    default:
                        State.refuse(work)
                    }
                    break
                }
                if case .finish = work { break }
                await state.handle(work)
                if state.isBroken { break }
            }
            ready.yield(false)
            ready.finish()
            works.finish()
            forwarder.cancel()
            renames?.cancel()
            titles.cancel()
            state.closeClients(code: 1001, reason: "the note was closed; reconnect")
            // Anything still queued is answered so nobody waits forever.
            for await work in stream { State.refuse(work) }
            await session.leave(editorId)
            await sessions.leave(noteId, session)
        }
    }

    // MARK: What connections call

    public enum Attached: Sendable {
        /// `site` is the one a legacy client is given.
        case joined(site: UInt8, messages: AsyncStream<Outbound>)
        /// A legacy client when all 255 sites are in use.
        case full
        /// The bridge has stopped (its note's session ended).
        case stopped
    }

    /// Adds a client.
    public func attach(_ id: UUID, kind: ClientKind, catchUp: CatchUp) async -> Attached {
        let (stream, continuation) = AsyncStream.makeStream(of: Outbound.self)
        let site = await withCheckedContinuation { done in
            if case .terminated = works.yield(.attach(id, kind, continuation, catchUp: catchUp, done: done)) { done.resume(returning: nil) }
        }
        guard let site else {
            continuation.finish()
            return .stopped
        }
        if kind == .legacy, site == NotekMirror.hubSite { return .full }
        return .joined(site: site, messages: stream)
    }

    public func detach(_ id: UUID) { works.yield(.detach(id)) }

    /// Hands Notek edits to the note; with `waitUntilStored`, returns once
    /// they are stored (false when they could not be).
    @discardableResult
    public func submit(_ edits: [ClientEdit], from client: UUID?, waitUntilStored: Bool) async -> Outcome {
        guard waitUntilStored else {
            works.yield(.edits(edits, from: client, done: nil))
            return .stored
        }
        return await withCheckedContinuation { done in
            if case .terminated = works.yield(.edits(edits, from: client, done: done)) { done.resume(returning: .failed) }
        }
    }

    /// Tells the note's other session clients of a new name (already stored).
    public func renamed(to name: String, by client: UUID) { works.yield(.rename(name, from: client)) }

    /// The note's characters and deleted positions as Notek sees them now.
    public func snapshot() async -> (atoms: [NotekAtom], deleted: [PositionID])? {
        await withCheckedContinuation { done in
            if case .terminated = works.yield(.snapshot(done)) { done.resume(returning: nil) }
        }
    }

    /// Leaves the session after everything queued is done.
    public func finish() async {
        works.yield(.finish)
        await loop.value
    }
}

extension NotekBridge {
    /// The bridge's state, touched only by its loop.
    fileprivate struct State {
        public struct Client: Sendable {
            public let kind: ClientKind
            public let site: UInt8
            public let outbound: AsyncStream<Outbound>.Continuation
        }

        /// Relays waiting for the session to store the operations before them.
        public struct Waiting: Sendable {
            /// Stored once the bridge's counter is acknowledged past this.
            public let end: UInt64
            public let from: UUID?
            public let edit: ClientEdit
            public let done: CheckedContinuation<Outcome, Never>?
        }

        public let noteId: UUID
        public let store: HearthStore
        public let logger: Logger
        public let session: NoteSession
        public let editorId: UUID
        public var mirror: NotekMirror?
        /// The text's size in UTF-8, counted up as characters come (deletions
        /// are not subtracted) and counted exactly when near the limit.
        public var textBytes = 0
        /// The note's title as Notek editors last heard it.
        public var title = ""
        public var clients: [UUID: Client] = [:]
        public var waiting: [Waiting] = []
        public var isBroken = false

        public init(noteId: UUID, store: HearthStore, logger: Logger, session: NoteSession, editorId: UUID) {
            self.noteId = noteId
            self.store = store
            self.logger = logger
            self.session = session
            self.editorId = editorId
        }

        public mutating func start(text: NoteText) async throws {
            let stored = try await store.notekPositions(noteId: noteId).compactMap { row -> NotekMirror.Assigned? in
                guard let position = try? PositionID(bytes: row.position) else { return nil }
                return NotekMirror.Assigned(character: CharacterID(replica: row.replica, counter: row.counter), position: position)
            }
            let mirror = NotekMirror(text: text, stored: stored)
            let assigned = try mirror.assignMissing()
            try await store.storeNotekPositions(noteId: noteId, assigned.map(Self.row))
            self.mirror = mirror
            textBytes = text.text.utf8.count
            title = try await store.note(id: noteId)?.title ?? ""
        }

        public static func row(_ assigned: NotekMirror.Assigned) -> StoredNotekPosition {
            StoredNotekPosition(replica: assigned.character.replica, counter: assigned.character.counter, position: assigned.position.bytes)
        }

        public mutating func handle(_ work: Work) async {
            guard let mirror else { return }
            switch work {
            case .fromSession(let item):
                await fromSession(item, mirror)
            case .attach(let id, let kind, let outbound, let catchUp, let done):
                var site: UInt8 = NotekMirror.hubSite
                if kind == .legacy {
                    let used = Set(clients.values.map(\.site))
                    guard let free = (1...UInt8.max).first(where: { !used.contains($0) }) else {
                        // Every site is taken: this client is refused, the others carry on.
                        outbound.finish()
                        done.resume(returning: NotekMirror.hubSite)
                        return
                    }
                    site = free
                }
                clients[id] = Client(kind: kind, site: site, outbound: outbound)
                switch catchUp {
                case .newSession:
                    outbound.yield(.send(.newSession(site: site, atoms: mirror.atoms())))
                case .characters(let withDeletes):
                    for atom in mirror.atoms() { outbound.yield(.send(.insert(site: NotekMirror.hubSite, atom: atom))) }
                    if withDeletes {
                        for position in mirror.deletedPositions() {
                            outbound.yield(.send(.delete(site: NotekMirror.hubSite, position: position)))
                        }
                    }
                case .nothing:
                    break
                }
                done.resume(returning: site)
            case .detach(let id):
                clients.removeValue(forKey: id)?.outbound.finish()
            case .edits(let edits, let from, let done):
                await take(edits, from: from, done: done, mirror)
            case .rename(let name, let from):
                guard name != title else { return }
                title = name
                for (id, client) in clients where id != from && client.kind == .session {
                    client.outbound.yield(.send(.nameChange(name)))
                }
            case .titled(let name):
                guard name != title else { return }
                title = name
                for client in clients.values where client.kind == .session {
                    client.outbound.yield(.send(.nameChange(name)))
                }
            case .snapshot(let done):
                done.resume(returning: (mirror.atoms(), mirror.deletedPositions()))
            case .finish:
                break
            }
        }

        /// Answers work the bridge will no longer do.
        public static func refuse(_ work: Work) {
            switch work {
            case .attach(_, _, let outbound, _, let done):
                outbound.finish()
                done.resume(returning: nil)
            case .edits(_, _, let done): done?.resume(returning: .failed)
            case .snapshot(let done): done.resume(returning: nil)
            case .fromSession, .detach, .rename, .titled, .finish: break
            }
        }

        // MARK: From Notek clients

        private mutating func take(_ edits: [ClientEdit], from client: UUID?, done: CheckedContinuation<Outcome, Never>?, _ mirror: NotekMirror) async {
            var operations: [NoteOperation] = []
            var assigned: [NotekMirror.Assigned] = []
            var accepted: [(end: UInt64, edit: ClientEdit)] = []
            let added = edits.reduce(0) { total, edit in
                guard case .insert(_, let atom) = edit else { return total }
                return total + atom.character.utf8.count
            }
            if textBytes + added > Note.maximumTextBytes {
                textBytes = mirror.text.text.utf8.count
                guard textBytes + added <= Note.maximumTextBytes else {
                    if let done {
                        done.resume(returning: .tooLarge)
                    } else if let client, let refused = clients.removeValue(forKey: client) {
                        refused.outbound.yield(.close(code: 1009, reason: "too large: a note holds at most 1 MiB of text"))
                        refused.outbound.finish()
                    }
                    return
                }
            }
            textBytes += added
            do {
                for edit in edits {
                    switch edit {
                    case .insert(_, let atom):
                        guard let (operation, position) = try mirror.insert(atom) else { continue }
                        operations.append(operation)
                        assigned.append(position)
                        accepted.append((operation.id.counter + operation.length, edit))
                    case .delete(_, let position):
                        guard let operation = try mirror.delete(position) else { continue }
                        operations.append(operation)
                        accepted.append((operation.id.counter + operation.length, edit))
                    }
                }
                // Positions first: a character must keep its position even if
                // the hub stops right after the session stored it.
                try await store.storeNotekPositions(noteId: noteId, assigned.map(Self.row))
            } catch NotekMirrorError.cramped where operations.isEmpty {
                // Nothing changed yet: only this client is refused.
                if let done {
                    done.resume(returning: .cramped)
                } else if let client, let refused = clients.removeValue(forKey: client) {
                    refused.outbound.yield(.close(code: 1007, reason: "invalid: no position fits next to that one"))
                    refused.outbound.finish()
                }
                return
            } catch {
                logger.error("notek edit could not be taken", metadata: ["note": "\(noteId)", "error": "\(error)"])
                done?.resume(returning: .failed)
                breakDown(code: 1011, reason: "hub error: reconnect")
                return
            }
            guard !operations.isEmpty else {
                done?.resume(returning: .stored)
                return
            }
            if let refusal = await session.receive(.operations(NoteOperation.encode(operations)), from: editorId) {
                logger.error("note session refused a notek edit", metadata: ["note": "\(noteId)", "reason": "\(refusal.reason)"])
                done?.resume(returning: .failed)
                breakDown(code: 1011, reason: "hub error: reconnect")
                return
            }
            for (index, item) in accepted.enumerated() {
                waiting.append(Waiting(end: item.end, from: client, edit: item.edit, done: index == accepted.count - 1 ? done : nil))
            }
        }

        // MARK: From the note's session

        private mutating func fromSession(_ item: NoteSession.Outbound, _ mirror: NotekMirror) async {
            switch item {
            case .send(.operations(let batch), _):
                do {
                    let (edits, assigned) = try mirror.apply(NoteOperation.decode(batch))
                    for case .insert(let atom) in edits { textBytes += atom.character.utf8.count }
                    try await store.storeNotekPositions(noteId: noteId, assigned.map(Self.row))
                    for edit in edits {
                        switch edit {
                        case .insert(let atom): tellAll(ClientEdit.insert(site: NotekMirror.hubSite, atom: atom), except: nil)
                        case .delete(let position): tellAll(ClientEdit.delete(site: NotekMirror.hubSite, position: position), except: nil)
                        }
                    }
                } catch {
                    logger.error("notek could not follow a note", metadata: ["note": "\(noteId)", "error": "\(error)"])
                    breakDown(code: 1011, reason: "hub error: reconnect")
                }
            case .send(.acknowledged(let vector), _):
                let stored = vector[mirror.text.replica]
                while let first = waiting.first, first.end <= stored {
                    waiting.removeFirst()
                    tellAll(first.edit, except: first.from)
                    first.done?.resume(returning: .stored)
                }
            case .send:
                break  // presence, and nothing else is sent after synced
            case .close(let code, let reason):
                // The session ended: the note is gone, or the hub is stopping or failed.
                breakDown(code: code == EditorCloseCode.gone ? 4404 : code == 1001 ? 1001 : 1011,
                          reason: code == EditorCloseCode.gone ? "not found: the note was removed or is no longer shared" : reason)
            }
        }

        private func tellAll(_ edit: ClientEdit, except sender: UUID?) {
            for (id, client) in clients where id != sender {
                switch (edit, client.kind) {
                case (.insert(let site, let atom), .legacy): client.outbound.yield(.send(.legacyInsert(site: site, atom: atom)))
                case (.insert(let site, let atom), .session): client.outbound.yield(.send(.insert(site: site, atom: atom)))
                case (.delete(let site, let position), .legacy): client.outbound.yield(.send(.legacyDelete(site: site, position: position)))
                case (.delete(let site, let position), .session): client.outbound.yield(.send(.delete(site: site, position: position)))
                }
            }
        }

        /// Ends every client's connection; the bridge stops after this item.
        public mutating func breakDown(code: UInt16, reason: String) {
            isBroken = true
            closeClients(code: code, reason: reason)
            for item in waiting { item.done?.resume(returning: .failed) }
            waiting = []
        }

        public mutating func closeClients(code: UInt16, reason: String) {
            for client in clients.values {
                client.outbound.yield(.close(code: code, reason: reason))
                client.outbound.finish()
            }
            clients = [:]
            for item in waiting { item.done?.resume(returning: .failed) }
            waiting = []
        }
    }
}
