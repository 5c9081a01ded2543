import Foundation
import HearthCore
import HearthCRDT
import HearthStore
import Logging
import NIOCore

/// One note open for editing, shared by everyone editing it: the note's
/// text as the hub holds it, the editors' outbound queues, and the order in
/// which their operations are checked, stored, acknowledged and relayed.
///
/// Operations are applied in memory in the order they arrive (the actor's
/// order), stored by a single writer that takes everything waiting in one
/// transaction (so twenty people typing cost one fsync per round, not one
/// each), and only then acknowledged to their editor and relayed to the
/// others — in that same order. A failed write leaves memory ahead of the
/// database, so the session is then closed and everyone reconnects to a
/// fresh one read from the database.
public actor NoteSession {
    public struct Editor {
        public let continuation: AsyncStream<Outbound>.Continuation
        public let name: String
        public let colour: String
        public let actor: PermissionPolicy.Actor
        public let actorName: String
    }

    /// What an editor's connection is told to do.
    public enum Outbound: Sendable {
        /// A message and its frame: a relayed message is encoded once for
        /// every editor it goes to, and their writers share the bytes.
        case send(NoteEditMessage, frame: ByteBuffer)
        case close(code: UInt16, reason: String)

        public static func message(_ message: NoteEditMessage) -> Outbound {
            .send(message, frame: ByteBuffer(bytes: message.encoded()))
        }
    }

    /// Operations applied in memory, waiting for the writer.
    private struct Unstored {
        public let editor: UUID
        public let batch: [UInt8]
        public let operations: [StoredNoteOperation]
        public let acknowledged: VersionVector
        public let actor: PermissionPolicy.Actor
        public let actorName: String
        /// Tell live listeners at once: a device syncing is not typing,
        /// and other devices should hear of it on their next sync.
        public let tellNow: Bool
    }

    public static let colours = ["#0b5cad", "#a4161a", "#1b7a3a", "#7b2cbf", "#b35c00", "#005f73", "#9d0191", "#3d405b"]
    /// Operations between two compactions of the stored state.
    public static let compactionInterval = 500
    /// A note's text changes are told to live listeners at most this often.
    public static let changeInterval: Duration = .seconds(10)

    public let noteId: UUID
    private let store: HearthStore
    private let logger: Logger
    private let text: NoteText
    /// What the session started from; editors that have at least this much
    /// catch up from `log`, others get the whole state.
    private let startVector: VersionVector
    /// Every operation applied since the session opened, oldest first.
    private var log: [NoteOperation] = []
    private var editors: [UUID: Editor] = [:]
    /// Who may have the note open, as last read: at opening, in each write
    /// of typing, and whenever the note changes (`recheck`). Every editor
    /// held here passes it; one who stops passing is closed with 4404
    /// before anything more is sent to them (NoteAccess).
    private var access: NoteAccess
    private var presence: [UUID: Data] = [:]
    private var unstored: [Unstored] = []
    private var writing = false
    public private(set) var isClosed = false
    private var firstLine: String
    private var textBytes: Int
    private var lastChangeToldAt: ContinuousClock.Instant?
    private var lastStoredSeq: Int64
    private var storedSinceCompaction = 0
    /// Typing stored without telling live listeners, and who typed last;
    /// told once the change interval has passed, so the log hears of the
    /// last of it (devices that sync later read the log).
    private var untold: String?
    /// Search re-indexes a note's whole text, so typing refreshes it at
    /// most once a change interval (and when the last editor leaves).
    private var lastSearchRefreshAt: ContinuousClock.Instant?
    private var searchBehind = false
    private var searchBehindBy = ""
    private var trailingTell: Task<Void, Never>?

    private init(noteId: UUID, store: HearthStore, logger: Logger, text: NoteText, note: Note, lastSeq: Int64) {
        self.noteId = noteId
        self.store = store
        self.logger = logger
        self.text = text
        self.startVector = text.versionVector
        self.firstLine = Note.firstLine(of: note.text)
        self.textBytes = note.text.utf8.count
        self.lastStoredSeq = lastSeq
        self.access = note.access
    }

    /// Reads the note's state and later operations; nil when there is no such note.
    public static func open(noteId: UUID, store: HearthStore, logger: Logger) async throws -> NoteSession? {
        guard let start = try await store.noteEditingStart(id: noteId) else { return nil }
        let text = try NoteText.decodeState(start.state, replica: ReplicaRange.random())
        for batch in start.updates {
            for operation in try NoteOperation.decode(batch) { try text.apply(operation, waitForMissing: false) }
        }
        return NoteSession(noteId: noteId, store: store, logger: logger, text: text, note: start.note, lastSeq: start.lastUpdateSeq)
    }

    public var isEmpty: Bool { editors.isEmpty }

    // MARK: Editors coming and going

    public func join(_ id: UUID, name: String, actor: PermissionPolicy.Actor, actorName: String) -> AsyncStream<Outbound>? {
        guard !isClosed, access.letsEdit(actor) else { return nil }
        let (stream, continuation) = AsyncStream.makeStream(of: Outbound.self)
        let used = Set(editors.values.map(\.colour))
        let colour = Self.colours.first { !used.contains($0) } ?? Self.colours[editors.count % Self.colours.count]
        editors[id] = Editor(continuation: continuation, name: name, colour: colour, actor: actor, actorName: actorName)
        return stream
    }

    public func leave(_ id: UUID) {
        guard let editor = editors.removeValue(forKey: id) else { return }
        editor.continuation.finish()
        if presence.removeValue(forKey: id) != nil {
            relay(.otherPresence(Self.json(["editor": id.text, "left": true])), except: id)
        }
    }

    /// Ends every connection (the hub is stopping, or the session broke).
    public func closeAll(code: UInt16, reason: String) {
        isClosed = true
        for editor in editors.values {
            editor.continuation.yield(.close(code: code, reason: reason))
            editor.continuation.finish()
        }
        editors = [:]
    }

    // MARK: Who may listen

    /// Reads who may have the note open now, and closes the editors who may
    /// no longer (made private, moved to Trash, purged). Called whenever the
    /// note changes, by each editor's connection and each Notek bridge.
    public func recheck() async {
        do {
            guard let now = try await store.noteAccess(id: noteId) else {
                closeAll(code: EditorCloseCode.gone, reason: Self.goneReason)
                return
            }
            update(access: now)
        } catch {
            logger.warning("note access could not be read", metadata: ["note": "\(noteId)", "error": "\(error)"])
        }
    }

    /// Takes who may have the note open as the database says it is now.
    private func update(access now: NoteAccess) {
        access = now
        for (id, editor) in editors where !now.letsEdit(editor.actor) {
            editors[id] = nil
            editor.continuation.yield(.close(code: EditorCloseCode.gone, reason: Self.goneReason))
            editor.continuation.finish()
            if presence.removeValue(forKey: id) != nil {
                relay(.otherPresence(Self.json(["editor": id.text, "left": true])), except: id)
            }
        }
    }

    public static let goneReason = "gone: the note was removed or is no longer shared with you"

    // MARK: Messages from an editor

    /// Handles one message; returns a close code and reason when the
    /// connection must end (the note is then unchanged by that message).
    public func receive(_ message: NoteEditMessage, from id: UUID) async -> (code: UInt16, reason: String)? {
        guard let editor = editors[id] else { return nil }
        switch message {
        case .hello(let vector):
            // The whole text may go out: who may read it is read again now.
            await recheck()
            guard let editor = editors[id] else { return (EditorCloseCode.gone, Self.goneReason) }
            catchUp(editor, from: vector)
            return nil
        case .presence(let json):
            var fields = (try? JSONSerialization.jsonObject(with: json) as? [String: Any]) ?? [:]
            fields["editor"] = id.text
            fields["name"] = editor.name
            fields["colour"] = editor.colour
            let relayed = Self.json(fields)
            presence[id] = relayed
            relay(.otherPresence(relayed), except: id)
            return nil
        case .operations(let batch):
            return submit(batch, from: id, editor: editor)
        case .state, .synced, .acknowledged, .otherPresence:
            return (EditorCloseCode.badFrame, "bad-frame: that message is the hub's to send")
        }
    }

    private func catchUp(_ editor: Editor, from vector: VersionVector) {
        if !vector.next.isEmpty, startVector.isIncluded(in: vector) {
            let missing = log.filter { $0.id.counter + $0.length > vector[$0.id.replica] }
            if !missing.isEmpty { editor.continuation.yield(.message(.operations(NoteOperation.encode(missing)))) }
        } else {
            editor.continuation.yield(.message(.state(text.encodeState())))
        }
        editor.continuation.yield(.message(.synced(text.versionVector)))
        for (_, json) in presence { editor.continuation.yield(.message(.otherPresence(json))) }
    }

    /// Applies a batch a device pushed through `/api/v1/sync` as a short-lived
    /// editor, so people editing the note see it at once; returns once it is
    /// stored (nil), or why it was refused (then nothing of it is acknowledged,
    /// though operations before the refused one may be stored).
    public func submitPushed(_ batch: [UInt8], actor: PermissionPolicy.Actor, actorName: String) async -> String? {
        let id = UUID.random()
        guard let stream = join(id, name: actorName, actor: actor, actorName: actorName), let editor = editors[id] else {
            return "gone: the note's editing session ended"
        }
        defer { leave(id) }
        if let refusal = submit(batch, from: id, editor: editor, tellNow: true) { return refusal.reason }
        for await item in stream {
            switch item {
            case .send(.acknowledged, _): return nil
            case .close(_, let reason): return reason
            case .send: continue
            }
        }
        return "gone: the note's editing session ended"
    }

    private func submit(_ batch: [UInt8], from id: UUID, editor: Editor, tellNow: Bool = false) -> (code: UInt16, reason: String)? {
        let operations: [NoteOperation]
        do {
            operations = try NoteOperation.decode(batch)
        } catch {
            return (EditorCloseCode.badFrame, "bad-frame: \(error)")
        }
        // What would be new text (a resent duplicate adds nothing).
        let vector = text.versionVector
        let added = operations.reduce(0) { total, operation in
            guard case .insertion(let insertion) = operation,
                  operation.id.counter + operation.length > vector[operation.id.replica] else { return total }
            return total + insertion.text.utf8.count
        }
        guard textBytes + added <= Note.maximumTextBytes else {
            return (EditorCloseCode.tooLarge, "too-large: a note holds at most 1 MiB of text")
        }
        var applied: [NoteOperation] = []
        var refusal: (code: UInt16, reason: String)?
        for operation in operations {
            do {
                applied += try text.apply(operation, waitForMissing: false)
            } catch {
                refusal = (EditorCloseCode.refused, "refused: \(operation.id) cannot be applied: \(error)")
                break
            }
        }
        var acknowledged: [UInt64: UInt64] = [:]
        for operation in operations { acknowledged[operation.id.replica] = text.versionVector[operation.id.replica] }
        if !applied.isEmpty || refusal == nil {
            log += applied
            textBytes += applied.reduce(0) { total, operation in
                if case .insertion(let insertion) = operation { return total + insertion.text.utf8.count }
                return total
            }
            unstored.append(Unstored(
                editor: id, batch: NoteOperation.encode(applied),
                operations: applied.map { StoredNoteOperation(replica: $0.id.replica, counter: $0.id.counter,
                                                              length: $0.length, bytes: NoteOperation.encode([$0])) },
                acknowledged: VersionVector(acknowledged), actor: editor.actor, actorName: editor.actorName, tellNow: tellNow))
            startWriting()
        }
        return refusal
    }

    // MARK: Storing

    private func startWriting() {
        guard !writing else { return }
        writing = true
        Task { await self.writeWaiting() }
    }

    /// Stores everything applied so far in one transaction, then tells
    /// the editors; repeats while more arrived meanwhile.
    private func writeWaiting() async {
        while !unstored.isEmpty, !isClosed {
            let round = unstored
            unstored = []
            let operations = round.flatMap(\.operations)
            let current = text.text
            textBytes = current.utf8.count
            // Lists show an untitled note by its first line: tell them at once
            // when it changes, and of other typing now and then.
            let line = Note.firstLine(of: current)
            let now = ContinuousClock.now
            let tell = line != firstLine || round.contains(where: \.tellNow)
                || lastChangeToldAt.map { now - $0 >= Self.changeInterval } ?? true
            let refreshSearch = round.contains(where: \.tellNow)
                || lastSearchRefreshAt.map { now - $0 >= Self.changeInterval } ?? true
            do {
                if let last = round.last, !operations.isEmpty {
                    let stored = try await store.storeNoteOperations(
                        noteId: noteId, operations: operations, text: current, recordChange: tell,
                        refreshSearch: refreshSearch, editors: Array(Set(round.map(\.actor))), by: last.actorName)
                    lastStoredSeq = stored.seq
                    // Relayed only to those who may read the note as it was
                    // when this typing was stored.
                    update(access: stored.access)
                    firstLine = line
                    if tell {
                        lastChangeToldAt = now
                        untold = nil
                    } else {
                        untold = last.actorName
                    }
                    if refreshSearch {
                        lastSearchRefreshAt = now
                        searchBehind = false
                    } else {
                        searchBehind = true
                        searchBehindBy = last.actorName
                    }
                    if untold != nil || searchBehind { scheduleTrailingTell() }
                }
            } catch let error as HearthError {
                // Someone in this round may no longer edit (or the note is
                // gone): nothing was stored, and memory is ahead of the
                // database. Those who may no longer see the note are told
                // so; the others reconnect to a session read afresh, and
                // send their typing again.
                logger.info("note editing refused", metadata: ["note": "\(noteId)", "error": "\(error)"])
                await recheck()
                closeAll(code: EditorCloseCode.restart, reason: "restart: the note's editing restarted; reconnect")
                break
            } catch {
                logger.error("note editing could not store", metadata: ["note": "\(noteId)", "error": "\(error)"])
                closeAll(code: EditorCloseCode.storage, reason: "hub error: reconnect")
                break
            }
            for item in round {
                editors[item.editor]?.continuation.yield(.message(.acknowledged(item.acknowledged)))
                if !item.operations.isEmpty { relay(.operations(item.batch), except: item.editor) }
            }
            storedSinceCompaction += operations.count
            if storedSinceCompaction >= Self.compactionInterval { await compact() }
        }
        writing = false
    }

    private func scheduleTrailingTell() {
        guard trailingTell == nil else { return }
        trailingTell = Task {
            try? await Task.sleep(for: Self.changeInterval)
            await self.tellUntold()
        }
    }

    /// Tells the log of typing stored untold, and brings search up to the
    /// text (also when the last editor leaves).
    public func tellUntold() async {
        trailingTell?.cancel()
        trailingTell = nil
        let behind = searchBehind
        searchBehind = false
        if behind { lastSearchRefreshAt = .now }
        do {
            if let actorName = untold {
                untold = nil
                lastChangeToldAt = .now
                try await store.recordNoteTextChanged(id: noteId, by: actorName)
            } else if behind {
                try await store.refreshNoteSearch(id: noteId, by: searchBehindBy)
            }
        } catch {
            logger.warning("note change could not be told", metadata: ["note": "\(noteId)", "error": "\(error)"])
        }
    }

    /// Writes the state as of everything stored, so the next opening reads
    /// one row. Runs between writes, never while an editor waits on one.
    public func compact() async {
        guard storedSinceCompaction > 0, unstored.isEmpty, !isClosed else { return }
        storedSinceCompaction = 0
        do {
            try await store.compactNote(id: noteId, state: text.encodeState(), throughSeq: lastStoredSeq)
        } catch {
            logger.warning("note compaction failed", metadata: ["note": "\(noteId)", "error": "\(error)"])
        }
    }

    private func relay(_ message: NoteEditMessage, except sender: UUID) {
        let outbound = Outbound.message(message)
        for (id, editor) in editors where id != sender { editor.continuation.yield(outbound) }
    }

    private static func json(_ object: [String: Any]) -> Data {
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
    }
}
