import Foundation
import HearthCore
import HearthCRDT
import HearthNotek
import HearthStore
import Logging

// What a Notek bridge holds and does on its one loop: the note as its Notek
// clients see it, their queues, and the edits waiting to be stored.
extension NotekBridge {
    /// The bridge's state, touched only by its loop.
    struct State {
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
