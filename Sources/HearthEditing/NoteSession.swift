import Foundation
import HearthCore
import HearthCRDT
import HearthStore
import Logging

/// One note open for editing, shared by everyone editing it: the note's
/// text as the hub holds it, the editors' outbound queues, and the order in
/// which their operations are checked, stored, acknowledged and relayed.
///
/// Operations are applied in memory in the order they arrive (the actor's
/// order) and relayed at once to the other editors who resend what the hub
/// lacks when they reconnect (a browser keeps what it heard in its outbox
/// until the hub says it is stored); a slow disk does not slow the typing
/// others see. A single writer stores everything waiting in one
/// transaction (so twenty people typing cost one fsync per round, not one
/// each), and only then acknowledges it — to its typist at once, to the
/// other web editors at most every 200 ms, so each can drop what it holds
/// for the hub — and relays it to editors who cannot resend
/// (the Notek bridge). A failed write leaves memory ahead of the database,
/// so the session is then closed and everyone reconnects to a fresh one
/// read from the database, resending what it lacks.
public actor NoteSession {
    public struct Editor {
        public let continuation: AsyncStream<Outbound>.Continuation
        public let name: String
        public let colour: String
        /// Who typed as, as the permission policy saw them when they joined
        /// or last changed (`reconsider`): what they may type is judged by it.
        public internal(set) var actor: PermissionPolicy.Actor
        public let origin: String
        /// Whether it resends, after reconnecting, operations it heard that
        /// the hub lacks (`Relay`): those hear typing before it is stored.
        public let relay: Relay
        /// Whether it stays to follow a note it may read but not change
        /// (a web page showing a note shared for reading). A Notek bridge or
        /// a synced batch types or leaves.
        public let mayFollow: Bool

        /// Whether it may be in the session with the note as `access` says.
        func mayStay(_ access: NoteAccess) -> Bool {
            Self.mayBeIn(access, actor: actor, mayFollow: mayFollow)
        }

        static func mayBeIn(_ access: NoteAccess, actor: PermissionPolicy.Actor, mayFollow: Bool) -> Bool {
            mayFollow ? access.letsFollow(actor) : access.letsEdit(actor)
        }
    }

    /// When an editor hears the others' typing.
    public enum Relay: Sendable {
        /// At once: the editor keeps what it heard until acknowledged and
        /// resends what the hub lacks on `hello` (the web editor).
        case beforeStoring
        /// Once stored: the editor cannot resend (the Notek bridge, whose
        /// clients hold only what the hub told them; a device's sync push).
        case afterStoring
    }

    /// What an editor's connection is told to do.
    public enum Outbound: Sendable {
        /// A message and its frame: a relayed message is encoded once for
        /// every editor it goes to (the array's storage is shared).
        case send(NoteEditMessage, frame: [UInt8])
        case close(code: UInt16, reason: String)

        public static func message(_ message: NoteEditMessage) -> Outbound {
            .send(message, frame: message.encoded())
        }
    }

    /// Operations applied in memory, waiting for the writer.
    struct Unstored {
        public let editor: UUID
        public let batch: [UInt8]
        /// What of it applied (duplicates and what waits are not here).
        public let applied: [NoteOperation]
        public let acknowledged: VersionVector
        public let actor: PermissionPolicy.Actor
        public let origin: String
        /// Tell live listeners at once: a device syncing is not typing,
        /// and other devices should hear of it on their next sync.
        public let tellNow: Bool
    }

    public static let colours = ["#0b5cad", "#a4161a", "#1b7a3a", "#7b2cbf", "#b35c00", "#005f73", "#9d0191", "#3d405b"]
    /// Operations between two compactions of the stored state, at least:
    /// a longer note waits for more (one for every 20 bytes of its text),
    /// so that what writing its state costs a keystroke does not grow with
    /// its length (the state of a 100 KB note is about as long as its text;
    /// replaying 5,000 operations when it next opens takes milliseconds).
    public static let compactionInterval = 500

    func compactionDue() -> Bool {
        storedSinceCompaction >= max(Self.compactionInterval, textBytes / 20)
    }

    /// A round's operations as rows to store: each run of one replica's
    /// consecutive operations (a typist's second of keystrokes) as one
    /// batch, so a round adds a row or two to the store, not one a
    /// keystroke (each row and its index entry cost the disk its bytes).
    static func rows(of operations: [NoteOperation]) -> [StoredNoteOperation] {
        var rows: [StoredNoteOperation] = []
        var run: [NoteOperation] = []
        func close() {
            guard let first = run.first else { return }
            rows.append(StoredNoteOperation(replica: first.id.replica, counter: first.id.counter,
                                            length: run.reduce(0) { $0 + $1.length }, bytes: NoteOperation.encode(run)))
            run = []
        }
        for operation in operations {
            if let last = run.last, last.id.replica != operation.id.replica || last.id.counter + last.length != operation.id.counter {
                close()
            }
            run.append(operation)
        }
        close()
        return rows
    }
    /// Editors who only heard typing are told it is stored at most this often.
    public static let storedNoticeInterval: Duration = .milliseconds(200)
    /// While someone types, live listeners (and the change log, which
    /// devices that sync later read) are told the note changed at most this
    /// often. Its text is not written then: a round only appends its
    /// operations, which are the durable record, and rewriting a long
    /// note's whole text every few seconds would make what typing costs the
    /// disk grow with the note.
    public static let changeInterval: Duration = .seconds(10)
    /// Typing that has paused this long has its text stored and its search
    /// words refreshed (as when the last editor leaves or the hub stops).
    public static let quietInterval: Duration = .seconds(2)
    /// At most one transaction a note this often while people type: each
    /// costs the disk its pages and an fsync whatever it holds, so a second
    /// of typing (20 keystrokes from a fast typist) goes in one. The typists'
    /// acknowledgements wait for it; the relay to the other editors does not.
    /// A device's sync push is not held back.
    public static let roundInterval: Duration = .seconds(1)

    public let noteId: UUID
    let store: HearthStore
    let logger: Logger
    let text: NoteText
    /// What the session started from; editors that have at least this much
    /// catch up from `log`, others get the whole state.
    private let startVector: VersionVector
    /// Every operation applied since the session opened, oldest first.
    private var log: [NoteOperation] = []
    var editors: [UUID: Editor] = [:]
    /// Who may have the note open, as last read: at opening, in each write
    /// of typing, and whenever the note changes (`recheck`). Every editor
    /// held here passes it; one who stops passing is closed with 4404
    /// before anything more is sent to them (NoteAccess).
    private var access: NoteAccess
    /// `ChangeHub.lastNoteChange` when `access` was read: typing is relayed
    /// before it is stored, so a note's change published since then is
    /// read again first (`accessIsCurrent`).
    private var accessReadAt: Int64
    private var presence: [UUID: Data] = [:]
    var unstored: [Unstored] = []
    var writing = false
    public internal(set) var isClosed = false
    var firstLine: String
    var textBytes: Int
    var lastStoredSeq: Int64
    /// Everything stored, as far as this session knows (what editors are
    /// told is acknowledged when they join).
    var storedVector: VersionVector
    var storedSinceCompaction = 0
    /// When live listeners were last told of typing.
    var lastChangeToldAt: ContinuousClock.Instant?
    /// Who typed last, when typing is stored that the note's stored text
    /// (and the change log, which devices that sync later read) does not
    /// include yet; nil when the text is current.
    var textBehind: String?
    /// The text is to go with the writer's next round (asked while it wrote).
    var textWanted = false
    /// Search re-indexes a note's whole text, so it is refreshed when typing
    /// goes quiet (and when the last editor leaves), not with each text.
    var searchBehind = false
    var searchBehindBy = ""
    /// When the last round was stored, and when its transaction began.
    var lastRoundAt: ContinuousClock.Instant?
    var lastRoundBegan: ContinuousClock.Instant?
    var quietWait: Task<Void, Never>?
    /// Stored typing the web editors who only heard it are not yet told of.
    var unnoticed: [UInt64: UInt64] = [:]
    var storedNotice: Task<Void, Never>?

    private init(noteId: UUID, store: HearthStore, logger: Logger, text: NoteText, note: Note, lastSeq: Int64,
                 accessReadAt: Int64) {
        self.noteId = noteId
        self.store = store
        self.logger = logger
        self.text = text
        self.startVector = text.versionVector
        self.storedVector = text.versionVector
        self.firstLine = Note.firstLine(of: note.text)
        self.textBytes = note.text.utf8.count
        self.lastStoredSeq = lastSeq
        self.access = note.access
        self.accessReadAt = accessReadAt
    }

    /// Reads the note's state and later operations; nil when there is no such note.
    public static func open(noteId: UUID, store: HearthStore, logger: Logger) async throws -> NoteSession? {
        let accessReadAt = store.hub.lastNoteChange
        guard let start = try await store.noteEditingStart(id: noteId) else { return nil }
        let text = try NoteText.decodeState(start.state, replica: ReplicaRange.random())
        for batch in start.updates {
            for operation in try NoteOperation.decode(batch) { try text.apply(operation, waitForMissing: false) }
        }
        return NoteSession(noteId: noteId, store: store, logger: logger, text: text, note: start.note, lastSeq: start.lastUpdateSeq,
                           accessReadAt: accessReadAt)
    }

    public var isEmpty: Bool { editors.isEmpty }

    // MARK: Editors coming and going

    public func join(_ id: UUID, name: String, actor: PermissionPolicy.Actor, origin: String,
                     relay: Relay, mayFollow: Bool = false) -> AsyncStream<Outbound>? {
        guard !isClosed, Editor.mayBeIn(access, actor: actor, mayFollow: mayFollow) else { return nil }
        let (stream, continuation) = AsyncStream.makeStream(of: Outbound.self)
        let used = Set(editors.values.map(\.colour))
        let colour = Self.colours.first { !used.contains($0) } ?? Self.colours[editors.count % Self.colours.count]
        editors[id] = Editor(continuation: continuation, name: name, colour: colour, actor: actor, origin: origin,
                             relay: relay, mayFollow: mayFollow)
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
    /// Returns false when it could not be read.
    @discardableResult
    public func recheck() async -> Bool {
        do {
            let readAt = store.hub.lastNoteChange
            guard let now = try await store.noteAccess(id: noteId) else {
                closeAll(code: EditorCloseCode.gone, reason: Self.goneReason)
                return true
            }
            update(access: now, readAt: readAt)
            return true
        } catch {
            logger.warning("note access could not be read", metadata: ["note": "\(noteId)", "error": "\(error)"])
            return false
        }
    }

    /// Takes who may have the note open as read after the note's change
    /// `readAt` (`ChangeHub.lastNoteChange` before the read). Editors who
    /// fail it are closed whatever its age; it replaces what the session
    /// holds only if no later reading did (readings may finish out of
    /// order), so an older one never lets anyone back in.
    func update(access now: NoteAccess, readAt: Int64) {
        if readAt >= accessReadAt {
            access = now
            accessReadAt = readAt
        }
        for (id, editor) in editors where !editor.mayStay(now) {
            shutOut(id)
        }
    }

    /// Takes who an editor's person is now — an admin unlinked her from the
    /// senior whose circle note this is, changed her role, or archived her
    /// (nil) — and closes her connection as "gone" if that person may no
    /// longer be here. What the note says of who may see it did not change,
    /// so only the person's own change brings this on (her connection
    /// watches for it); without it an open editor outlived an unlink.
    public func reconsider(_ id: UUID, as actor: PermissionPolicy.Actor?) {
        guard var editor = editors[id] else { return }
        guard let actor, Editor.mayBeIn(access, actor: actor, mayFollow: editor.mayFollow) else {
            shutOut(id)
            return
        }
        editor.actor = actor
        editors[id] = editor
    }

    /// Closes one editor's connection as "gone" and tells the others she left.
    private func shutOut(_ id: UUID) {
        guard let editor = editors.removeValue(forKey: id) else { return }
        editor.continuation.yield(.close(code: EditorCloseCode.gone, reason: Self.goneReason))
        editor.continuation.finish()
        if presence.removeValue(forKey: id) != nil {
            relay(.otherPresence(Self.json(["editor": id.text, "left": true])), except: id)
        }
    }

    /// Reads who may have the note open again if a note changed since it
    /// was read; before anything typed is relayed.
    /// False when it had to be read again and could not be: then nothing
    /// is relayed.
    private func accessIsCurrent() async -> Bool {
        if store.hub.lastNoteChange == accessReadAt { return true }
        return await recheck()
    }

    public static let goneReason = "gone: the note was removed or is no longer shared with you"
    public static let readOnlyReason = "read-only: this note is shared for reading; only its owner changes it"

    // MARK: Messages from an editor

    /// Handles one message; returns a close code and reason when the
    /// connection must end (the note is then unchanged by that message).
    public func receive(_ message: NoteEditMessage, from id: UUID) async -> (code: UInt16, reason: String)? {
        switch message {
        case .operations, .presence:
            guard await accessIsCurrent() else { return (EditorCloseCode.storage, "hub error: reconnect") }
        default:
            break
        }
        guard let editor = editors[id] else { return nil }
        switch message {
        case .hello(let vector):
            // The whole text may go out: who may read it is read again now.
            guard await recheck() else { return (EditorCloseCode.storage, "hub error: reconnect") }
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
            // One who may only read (a note shared for reading, or made so
            // while it was open) has sent typing: none of it is kept.
            guard access.letsEdit(editor.actor) else { return (EditorCloseCode.readOnly, Self.readOnlyReason) }
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
        // What of that is stored: the editor may drop it from what it keeps.
        editor.continuation.yield(.message(.acknowledged(storedVector)))
        for (_, json) in presence { editor.continuation.yield(.message(.otherPresence(json))) }
    }

    /// Applies a batch a device pushed through `/api/v1/sync` as a short-lived
    /// editor, so people editing the note see it at once; returns once it is
    /// stored (nil), or why it was refused (then nothing of it is acknowledged,
    /// though operations before the refused one may be stored).
    public func submitPushed(_ batch: [UInt8], actor: PermissionPolicy.Actor, origin: String) async -> String? {
        let id = UUID.random()
        guard let stream = join(id, name: origin, actor: actor, origin: origin, relay: .afterStoring),
              let editor = editors[id] else {
            return "gone: the note's editing session ended"
        }
        defer { leave(id) }
        guard await accessIsCurrent() else { return "hub error: try again" }
        guard editors[id] != nil else { return Self.goneReason }
        if let refusal = submit(batch, from: id, editor: editor, tellNow: true) { return refusal.reason }
        // A typist hears of each stored round it was in: this batch is stored once one covers it.
        guard let needed = unstored.last(where: { $0.editor == id })?.acknowledged else { return nil }
        for await item in stream {
            switch item {
            case .send(.acknowledged(let stored), _) where needed.isIncluded(in: stored): return nil
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
                applied: applied,
                acknowledged: VersionVector(acknowledged), actor: editor.actor, origin: editor.origin, tellNow: tellNow))
            if !applied.isEmpty { relay(.operations(unstored[unstored.count - 1].batch), except: id, when: .beforeStoring) }
            startWriting()
        }
        return refusal
    }

    /// Sends `message` to every editor but `sender` (to those who hear
    /// typing `when`, if given), encoded once.
    func relay(_ message: NoteEditMessage, except sender: UUID?, when: Relay? = nil) {
        let outbound = Outbound.message(message)
        for (id, editor) in editors where id != sender && (when == nil || editor.relay == when) {
            editor.continuation.yield(outbound)
        }
    }

    private static func json(_ object: [String: Any]) -> Data {
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
    }
}
