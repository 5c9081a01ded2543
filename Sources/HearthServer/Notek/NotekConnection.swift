import Foundation
import HearthCore
import HearthEditing
import HearthNotek
import HearthStore
import HummingbirdWebSocket
import Logging
import NIOCore

/// One Notek client's WebSocket: its first message decides what kind of
/// connection it is (legacy session, sync, or editing session), and every
/// later message must be of that kind. See `NotekListener` for close codes.
struct NotekConnection {
    let bridges: NotekBridges
    let store: HearthStore
    let logger: Logger
    let peer: String

    private typealias Closing = (code: UInt16, reason: String)

    /// The note a legacy or editing-session connection has joined.
    private struct Joined {
        let noteId: UUID
        let bridge: NotekBridge
        let relay: Task<Void, Never>
    }

    func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async {
        let clientId = UUID.random()
        // Everything this connection is told goes out in order through one queue.
        let (queue, out) = AsyncStream.makeStream(of: NotekBridge.Outbound.self)
        let writer = Task {
            for await item in queue {
                switch item {
                case .send(let message):
                    do {
                        try await outbound.write(.binary(ByteBuffer(bytes: message.bytes)))
                    } catch {
                        return
                    }
                case .close(let code, let reason):
                    try? await outbound.close(.unknown(code), reason: reason)
                    return
                }
            }
        }
        guard await bridges.connected(clientId, out) else {
            out.yield(.close(code: 1001, reason: "hub stopping"))
            out.finish()
            _ = await writer.value
            return
        }
        defer { Task { await bridges.disconnected(clientId) } }
        var kind = NotekConnectionKind.undecided
        var joined: Joined?
        var created = 0
        var closing: Closing?
        var messages = inbound.messages(maxSize: HearthLimits.webSocketMessage).makeAsyncIterator()
        do {
            while let message = try await messages.next() {
                guard case .binary(let buffer) = message else {
                    closing = (NotekListener.CloseCode.protocolError, "protocol error: Notek messages are binary frames")
                    break
                }
                let decoded: NotekMessage
                do {
                    decoded = try NotekMessage.decodeFromClient(Array(buffer.readableBytesView), on: kind)
                } catch {
                    closing = (NotekListener.CloseCode.protocolError, CloseReason.fitting("\(error)"))
                    logger.notice("notek protocol error", metadata: ["peer": "\(peer)", "kind": "\(kind)", "error": "\(error)"])
                    break
                }
                if kind == .undecided { kind = decoded.kind }
                if let end = await handle(decoded, clientId: clientId, out: out, joined: &joined, created: &created) {
                    closing = end
                    break
                }
            }
        } catch {
            // The connection dropped or sent an oversized message: the
            // library has already closed it.
        }
        if let joined {
            joined.bridge.detach(clientId)
            joined.relay.cancel()
            await bridges.release(joined.bridge)
        }
        if let closing {
            out.yield(.close(code: closing.code, reason: closing.reason))
            out.finish()
            _ = await writer.value
            // Until the client answers the close, so the handshake ends here.
            while (try? await messages.next()) != nil {}
        } else {
            out.finish()
            _ = await writer.value
        }
    }

    // MARK: Messages

    private func handle(_ message: NotekMessage, clientId: UUID, out: AsyncStream<NotekBridge.Outbound>.Continuation,
                        joined: inout Joined?, created: inout Int) async -> Closing? {
        do {
            // A note named that does not exist yet is made by this message:
            // one connection makes a few (offline notes), never thousands.
            switch message {
            case .sessionStart(_, let document, _), .upsert(let document, _, _, _, _):
                if try await store.note(id: document) == nil {
                    guard created < NotekListener.notesPerConnection else {
                        return (NotekListener.CloseCode.tooMany,
                                "too many: at most \(NotekListener.notesPerConnection) new notes on one connection")
                    }
                    created += 1
                }
            default: break
            }
            switch message {
            case .greet:
                let note = try await store.legacyNotekNote(as: NotekBridge.actor, by: NotekBridge.origin)
                return await join(note.id, kind: .legacy, catchUp: .newSession, clientId: clientId, out: out, joined: &joined)
            case .sessionStart(let since, let document, let name):
                guard let note = try await store.notekNote(id: document, creatingWithTitle: name, as: NotekBridge.actor, by: NotekBridge.origin) else {
                    return Self.notFound
                }
                let changed = Self.time(note.updatedAt) > since
                return await join(note.id, kind: .session, catchUp: changed ? .characters(withDeletes: since > 0) : .nothing,
                                  clientId: clientId, out: out, joined: &joined)
            case .legacyInsert(let site, let atom), .insert(let site, let atom):
                return await edit([.insert(site: site, atom: atom)], joined: joined, clientId: clientId)
            case .legacyDelete(let site, let position), .delete(let site, let position):
                return await edit([.delete(site: site, position: position)], joined: joined, clientId: clientId)
            case .nameChange(let name):
                guard let joined else { return Self.notFound }
                guard try await rename(joined.noteId, to: name) else { return Self.notFound }
                joined.bridge.renamed(to: name, by: clientId)
            case .syncList(let since):
                let notes = try await store.sharedNotes(changedAfter: Self.date(since))
                out.yield(.send(.documentList(notes.map { NotekListedDocument(lastModified: Self.time($0.updatedAt), document: $0.id) })))
            case .pull(let document, let since):
                guard let note = try await sharedNote(document), let bridge = await bridges.acquire(note.id) else { return Self.notFound }
                let snapshot = await bridge.snapshot()
                await bridges.release(bridge)
                guard let snapshot else { return Self.busy }
                out.yield(.send(.document(note.id, name: Self.name(note.title), inserts: snapshot.atoms,
                                          deletes: since > 0 ? snapshot.deleted : [])))
            case .upsert(let document, let name, _, let inserts, let deletes):
                guard let note = try await store.notekNote(id: document, creatingWithTitle: name, as: NotekBridge.actor, by: NotekBridge.origin) else {
                    return Self.notFound
                }
                if !name.isEmpty, name != note.title {
                    guard try await rename(note.id, to: name) else { return Self.notFound }
                }
                guard !inserts.isEmpty || !deletes.isEmpty else { return nil }
                if inserts.contains(where: { $0.character == "\u{0}" }) {
                    return (NotekListener.CloseCode.invalid, "invalid: a note's text cannot hold a NUL character")
                }
                guard let bridge = await bridges.acquire(note.id) else { return Self.notFound }
                let edits = inserts.map { NotekBridge.ClientEdit.insert(site: $0.position.elements.last?.site ?? 0, atom: $0) }
                    + deletes.map { NotekBridge.ClientEdit.delete(site: NotekMirror.hubSite, position: $0) }
                let outcome = await bridge.submit(edits, from: clientId, waitUntilStored: true)
                await bridges.release(bridge)
                switch outcome {
                case .stored: break
                case .tooLarge: return (NotekListener.CloseCode.tooLarge, "too large: a note holds at most 1 MiB of text")
                case .failed: return Self.busy
                case .cramped: return (NotekListener.CloseCode.invalid, "invalid: no position fits next to that one")
                }
            case .rename(let document, let name):
                guard try await rename(document, to: name) else { return Self.notFound }
                await bridges.existing(document)?.renamed(to: name, by: clientId)
            case .deleteDocument(let document):
                guard try await sharedNote(document) != nil else { return Self.notFound }
                _ = try await store.trashNote(id: document, as: NotekBridge.actor, by: NotekBridge.origin)
            case .newSession, .documentList, .document:
                return (NotekListener.CloseCode.protocolError, "protocol error: that message is the hub's to send")
            }
        } catch let error as HearthError {
            switch error {
            case .notFound: return Self.notFound
            case .invalid(let fields): return (NotekListener.CloseCode.invalid, CloseReason.fitting("invalid: " + fields.values.sorted().joined(separator: "; ")))
            default: return (NotekListener.CloseCode.hubError, CloseReason.fitting("\(error)"))
            }
        } catch {
            logger.error("notek request failed", metadata: ["peer": "\(peer)", "error": "\(error)"])
            return (NotekListener.CloseCode.hubError, "hub error: reconnect")
        }
        return nil
    }

    private func join(_ noteId: UUID, kind: NotekBridge.ClientKind, catchUp: NotekBridge.CatchUp, clientId: UUID,
                      out: AsyncStream<NotekBridge.Outbound>.Continuation, joined: inout Joined?) async -> Closing? {
        // A bridge whose note session just ended is replaced once.
        for _ in 0..<2 {
            guard let bridge = await bridges.acquire(noteId) else { return Self.notFound }
            let messages: AsyncStream<NotekBridge.Outbound>
            switch await bridge.attach(clientId, kind: kind, catchUp: catchUp) {
            case .joined(_, let stream):
                messages = stream
            case .full:
                await bridges.release(bridge)
                return (NotekListener.CloseCode.tryAgain, "all 255 Notek sites of this note are in use; try again later")
            case .stopped:
                await bridges.release(bridge)
                await bridges.forget(bridge)
                continue
            }
            let relay = Task {
                for await item in messages { out.yield(item) }
            }
            joined = Joined(noteId: noteId, bridge: bridge, relay: relay)
            return nil
        }
        return Self.busy
    }

    private func edit(_ edits: [NotekBridge.ClientEdit], joined: Joined?, clientId: UUID) async -> Closing? {
        guard let joined else { return (NotekListener.CloseCode.protocolError, "protocol error: no note joined") }
        for case .insert(_, let atom) in edits where atom.character == "\u{0}" {
            return (NotekListener.CloseCode.invalid, "invalid: a note's text cannot hold a NUL character")
        }
        await joined.bridge.submit(edits, from: clientId, waitUntilStored: false)
        return nil
    }

    /// Renames a shared note; false when there is no such shared note.
    private func rename(_ noteId: UUID, to name: String) async throws -> Bool {
        guard try await sharedNote(noteId) != nil else { return false }
        _ = try await store.updateNote(id: noteId, title: name, visibility: nil, pinned: nil, as: NotekBridge.actor,
                                       by: NotekBridge.origin)
        return true
    }

    private func sharedNote(_ id: UUID) async throws -> Note? {
        guard let note = try await store.note(id: id), note.isNotekNote else { return nil }
        return note
    }

    // MARK: Wire values

    private static let notFound: Closing = (NotekListener.CloseCode.notFound, "not found: no shared note has that id")
    private static let busy: Closing = (NotekListener.CloseCode.tryAgain, "the note was closed meanwhile; reconnect")

    /// Notek's times: milliseconds since 1970, as the hub stores them.
    static func time(_ date: Date) -> UInt64 { UInt64(max(0, date.timeIntervalSince1970 * 1000).rounded()) }

    static func date(_ time: UInt64) -> Date { Date(timeIntervalSince1970: Double(min(time, UInt64(Int64.max))) / 1000) }

    /// A title as a Notek name: at most 255 bytes, cut between characters.
    static func name(_ title: String) -> String {
        guard title.utf8.count > 255 else { return title }
        var name = ""
        for character in title {
            guard name.utf8.count + String(character).utf8.count <= 255 else { break }
            name.append(character)
        }
        return name
    }
}
