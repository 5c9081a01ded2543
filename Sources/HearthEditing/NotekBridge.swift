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

    enum Work: Sendable {
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

    /// Who a Notek client acts as: nobody in particular, with the
    /// household's shared notes — read, edit, rename, move to Trash — which
    /// is what a household turning the listener on agrees to (the protocol
    /// has no sign-in). The policy's own row for it (`HubWork.notekBridge`)
    /// reaches nothing else: no private or circle note, no medicine, no person.
    public static let actor = PermissionPolicy.Actor.notekBridge
    public static let origin = "notek"

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
        guard let queue = await session.join(editorId, name: "Notek", actor: Self.actor, origin: Self.origin,
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
