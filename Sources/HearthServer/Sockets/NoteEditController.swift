import Foundation
import HearthCore
import HearthEditing
import HearthCRDT
import HearthStore
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore

/// `WS /api/v1/notes/{id}/edit`: editing a note's text together.
///
/// Frames are binary, `[version 1][type]` then the body (NoteEditMessage):
/// 1. the editor sends `hello` with its version vector;
/// 2. the hub answers with what the editor lacks — the operations, or the
///    whole note when the editor has nothing or is too far behind — then
///    `synced` with its own version vector and the other editors' presence;
/// 3. the editor sends the operations the hub lacks (typed offline);
/// 4. from then on operations flow both ways: the hub relays each batch to
///    the other editors as soon as it has checked and applied it, stores it,
///    then tells its sender it is stored (`acknowledged`, a version vector:
///    stored means acknowledged), and the other editors too within 200 ms
///    (also sent after `synced`). An editor keeps
///    what it sent *and what it heard* until acknowledged, and sends it
///    again after reconnecting if the hub lacks it (the hub may have
///    stopped between relaying and storing); `presence` (where a cursor
///    is) is relayed with the editor's name and colour, not stored.
///
/// Close codes (the reason says the same in words, cut to fit the frame):
/// - 4400 "bad-frame": a frame this protocol does not have, or malformed bytes;
/// - 4403 "read-only": typing into a note shared with this person for
///   reading only (they follow it live, but only its owner changes it);
///   none of that message is kept;
/// - 4404 "gone": the note was removed, moved to Trash or is no longer shared
///   with this person; sent the moment that happens, not at the next keystroke;
/// - 4409 "refused": an operation that names what the hub does not have
///   (ids from the future) or could never apply; the reason names it
///   ("refused: 77:5 cannot be applied: …"); the note is unchanged by it;
/// - 4413 "too-large": the note would exceed 1 MiB of text;
/// - 4401 "revoked": this device was removed from the household;
/// - 4429 "too-many": more than 100 messages a second on average (bursts
///   of up to 400 pass);
/// - 1011: the hub could not store; reconnect;
/// - 1012 "restart": someone typing into the note lost the right to as
///   their typing was stored; nothing of that round was stored, reconnect
///   and send it again;
/// - 1001: the hub is stopping.
/// An upgrade for a note the caller may not see, or from another site's
/// page, is refused before upgrading (HTTP 400; a plain GET explains why).
struct NoteEditController {
    static let path = APIPath.link(.notes, "{id}", "edit")
    typealias CloseCode = EditorCloseCode
    /// A device sends at most this many messages a second, on average…
    static let messagesPerSecond = 100
    /// …and this many at once: a slow network delivers a typist's
    /// keystrokes in bursts.
    static let messageBurst = 400

    let store: HearthStore
    let sessions: NoteSessions

    /// The note the caller may open (to type, or to follow one shared for
    /// reading), or the problem to report.
    func openableNote(_ context: HearthRequestContext) async throws -> (Note, PermissionPolicy.Actor) {
        try await Self.openableNote(context, store: store)
    }

    static func openableNote(_ context: HearthRequestContext, store: HearthStore) async throws -> (Note, PermissionPolicy.Actor) {
        let actor = try context.requirePaired()
        guard let id = context.parameters.get("id").flatMap(UUID.init(text:)),
              let note = try await store.note(id: id), note.access.letsFollow(actor)
        else { throw HearthError.notFound(what: "That note") }
        return (note, actor)
    }

    /// A plain GET, or an upgrade that was refused, lands here and gets the reason.
    static func addHTTPRoutes(to router: Router<HearthRequestContext>, store: HearthStore) {
        router.get(RouterPath(Self.path)) { request, context -> Response in
            guard OriginCheck.isAllowed(request) else {
                throw ProblemError(.forbidden, type: "cross-origin", detail: "WebSocket connections from another site's page are not allowed")
            }
            _ = try await openableNote(context, store: store)
            throw ProblemError(.upgradeRequired, type: "upgrade-required", detail: "Connect to this address with a WebSocket")
        }
    }

    func addWebSocketRoutes(to router: Router<HearthRequestContext>) {
        router.ws(RouterPath(Self.path)) { request, context in
            guard OriginCheck.isAllowed(request, cookieAuthenticated: context.authenticatedByCookie),
                  (try? await openableNote(context)) != nil
            else { return .dontUpgrade }
            return .upgrade([:])
        } onUpgrade: { inbound, outbound, context in
            try await edit(inbound, outbound, context.requestContext)
        }
    }

    /// One editor's connection: joins the note's session, sends what the
    /// session sends, passes on what the editor sends, and leaves.
    private func edit(_ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter,
                      _ context: HearthRequestContext) async throws {
        guard let (note, actor) = try? await openableNote(context) else {
            try await close(outbound, inbound, CloseCode.gone, "gone: the note was removed or is no longer shared with you")
            return
        }
        guard let (session, editorId, queue) = try await join(note, as: actor, context, inbound, outbound) else { return }
        // The hub's messages go out in the session's order, on their own task.
        let writer = Task {
            for await item in queue {
                switch item {
                case .send(_, let frame):
                    try await outbound.write(.binary(ByteBuffer(bytes: frame)))
                case .close(let code, let reason):
                    try? await outbound.close(.unknown(code), reason: CloseReason.fitting(reason))
                    return
                }
            }
        }
        let watching = try await watch(note, for: session, editor: editorId, person: actor.personId,
                                       device: context.caller.deviceId, outbound)
        defer { watching.cancel() }
        // One iterator for the whole connection: the stream allows only one.
        var messages = inbound.messages(maxSize: HearthLimits.webSocketMessage).makeAsyncIterator()
        let closing = await read(&messages, into: session, from: editorId)
        await session.leave(editorId)
        if let closing {
            writer.cancel()
            try? await outbound.close(.unknown(closing.code), reason: CloseReason.fitting(closing.reason))
            // Until the client answers the close, so the handshake ends here.
            while (try? await messages.next()) != nil {}
        } else {
            _ = await writer.result
        }
        await sessions.leave(note.id, session)
    }

    /// The note's session with this editor in it, or nil once the
    /// connection was closed with the reason.
    private func join(_ note: Note, as actor: PermissionPolicy.Actor, _ context: HearthRequestContext,
                      _ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter
    ) async throws -> (NoteSession, UUID, AsyncStream<NoteSession.Outbound>)? {
        let session: NoteSession
        do {
            guard let joined = try await sessions.join(note.id) else {
                try await close(outbound, inbound, CloseCode.gone, "gone: the note was removed")
                return nil
            }
            session = joined
        } catch {
            context.logger.error("note could not be opened for editing", metadata: ["note": "\(note.id)", "error": "\(error)"])
            try await close(outbound, inbound, CloseCode.storage, "hub error: reconnect")
            return nil
        }
        let editorId = UUID.random()
        let name = (try? await store.person(id: actor.personId))?.name ?? ""
        guard let queue = await session.join(editorId, name: name, actor: actor, origin: context.caller.origin,
                                             relay: .beforeStoring, mayFollow: true) else {
            await sessions.leave(note.id, session)
            try await close(outbound, inbound, CloseCode.storage, "hub error: reconnect")
            return nil
        }
        return (session, editorId, queue)
    }

    /// A device removed while editing is shut out at once, as on /live; so
    /// is an editor who may no longer see the note: the session reads who
    /// may each time the note changes, and who this editor's person is each
    /// time she changes (a care link of hers made or undone, a new role,
    /// archived). Runs until cancelled.
    private func watch(_ note: Note, for session: NoteSession, editor editorId: UUID, person personId: UUID,
                       device deviceId: UUID?, _ outbound: WebSocketOutboundWriter) async throws -> Task<Void, any Error> {
        let noteKey = note.id.text
        let changes = try? await store.subscribe(after: try await store.latestSeq()) { change in
            LiveVisibility.revokes(change, deviceId: deviceId) || (change.entity == .note && change.entityId == noteKey)
                || LiveVisibility.reshapes(change, person: personId)
        }
        return Task {
            defer { changes?.cancel() }
            guard let changes else { return }
            for try await change in changes {
                if LiveVisibility.revokes(change, deviceId: deviceId) {
                    try? await outbound.close(.unknown(CloseCode.revoked), reason: "revoked: this device was removed; pair it again")
                    return
                }
                if LiveVisibility.reshapes(change, person: personId) {
                    // Unreadable now: nobody is let stay on a guess.
                    await session.reconsider(editorId, as: try? await store.actor(of: personId))
                } else {
                    await session.recheck()
                }
            }
        }
    }

    /// Hands the editor's messages to the session until the connection
    /// ends (nil) or must be closed (the code and reason).
    private func read(_ messages: inout WebSocketInboundMessageStream.AsyncIterator, into session: NoteSession,
                      from editorId: UUID) async -> (code: UInt16, reason: String)? {
        var allowance = MessageAllowance(perSecond: Self.messagesPerSecond, burst: Self.messageBurst)
        do {
            while let message = try await messages.next() {
                guard case .binary(let buffer) = message else {
                    return (CloseCode.badFrame, "bad-frame: this protocol uses binary frames")
                }
                guard allowance.take() else {
                    return (CloseCode.tooMany, "too-many: more than \(Self.messagesPerSecond) messages a second")
                }
                do {
                    let decoded = try NoteEditMessage.decode(Array(buffer.readableBytesView))
                    if let refusal = await session.receive(decoded, from: editorId) { return refusal }
                } catch {
                    return (CloseCode.badFrame, "bad-frame: \(error)")
                }
            }
        } catch {
            // The connection dropped or sent an oversized message: the
            // library has already closed it.
        }
        return nil
    }

    /// Closes with a code and reason before anything was read, then waits
    /// for the client's answering close so the handshake finishes here.
    private func close(_ outbound: WebSocketOutboundWriter, _ inbound: WebSocketInboundStream, _ code: UInt16, _ reason: String) async throws {
        try await outbound.close(.unknown(code), reason: CloseReason.fitting(reason))
        for try await _ in inbound {}
    }
}
