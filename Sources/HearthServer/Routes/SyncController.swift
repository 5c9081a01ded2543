import Foundation
import HearthCore
import HearthEditing
import HearthCRDT
import HearthStore
import Hummingbird

/// `/api/v1/sync`: an offline device pushes what it changed and pulls what
/// it missed, in one round trip, through the change log every other client
/// reads (Docs/architecture.md, how a change travels). `/api/v1/sync/snapshot` starts a device
/// afresh when its cursor is older than the log the hub keeps.
struct SyncController {
    let store: HearthStore
    /// Typing a device pushes joins the note's editing session, so people
    /// editing the note see it at once.
    let sessions: NoteSessions
    /// How far ahead of the hub a device's clock reading may be.
    var maximumSkew: TimeInterval = HearthStore.defaultMaximumSkew

    /// Changes one push may carry; a device with more sends them in turns.
    static let maximumPush = 500
    static let defaultPage = 500
    static let maximumPage = 2000

    func addRoutes(to api: RouterGroup<HearthRequestContext>) {
        let sync = api.group(.sync)
        sync.post { request, context -> JSONValue in
            let actor = try context.requirePaired()
            guard let deviceId = context.caller.deviceId else { throw HearthError.notFound(what: "That device") }
            let body = try await request.decode(as: JSONValue.self, context: context)
            let (since, limit, changes) = try Self.read(body, device: deviceId)
            // A device that must resync first has nothing applied (checked in
            // the push's transaction): it would not hear what became of it.
            let fieldChanges = changes.filter { $0.entity != .noteText }
            let outcome = try await store.pushSync(fieldChanges, since: since, deviceId: deviceId, as: actor, maximumSkew: maximumSkew)
            // Typing after the fields: a note created in this push exists by now.
            var fieldResults = outcome.results.makeIterator()
            var results: [JSONValue] = []
            for change in changes {
                if change.entity == .noteText {
                    results.append(try await applyText(change, actor: actor, origin: context.caller.origin))
                } else if let result = fieldResults.next() {
                    results.append(result)
                }
            }
            let page = try await store.syncPage(after: since, limit: limit)
            let pulled = try await visible(page.changes, to: actor, excluding: outcome.ownChanges)
            return [
                "results": .array(try await withNotesNow(results, for: actor)),
                "changes": .array(pulled),
                "cursor": .number(Double(page.cursor)),
                "more": .bool(page.more),
                "hlc": .string(store.latestClockReading().description),
                // The hub's time, for a device to learn how far off its own clock is.
                "time": .string(ISOTime.text(store.currentTime())),
            ]
        }
        sync.get("snapshot") { _, context -> JSONValue in
            let actor = try context.requirePaired()
            let snapshot = try await store.syncSnapshot()
            return [
                // Only what the device is to keep: a note made private is left out.
                "entities": .array(try await visible(snapshot.changes, to: actor, excluding: [])
                    .filter { $0.field("deleted") != .bool(true) }),
                "cursor": .number(Double(snapshot.cursor)),
                "hlc": .string(store.latestClockReading().description),
                "time": .string(ISOTime.text(store.currentTime())),
            ]
        }
    }

    /// Hands a device's typing to the note's editing session and waits until
    /// it is stored. Not remembered by `opId`: each character has its own id,
    /// so a batch sent twice adds nothing the second time.
    func applyText(_ change: SyncChange, actor: PermissionPolicy.Actor, origin: String) async throws -> JSONValue {
        if let refusal = try await store.syncNoteTextRefusal(change, as: actor) { return refusal }
        guard case .string(let encoded)? = change.fields["operations"], let bytes = Data(base64Encoded: encoded),
              let noteId = UUID(text: change.id) else {
            throw HearthError.invalid(fields: ["fields.operations": "must be base64"])
        }
        let batch = [UInt8](bytes)
        do {
            _ = try NoteOperation.decode(batch)
        } catch {
            return Self.rejected(change, reason: "bad-operations", detail: "\(error)")
        }
        guard let session = try await sessions.join(noteId) else { return Self.rejected(change, reason: "not-found", detail: nil) }
        let refusal = await session.submitPushed(batch, actor: actor, origin: origin)
        await sessions.leave(noteId, session)
        guard let refusal else { return ["opId": .string(change.opId.text), "status": "applied"] }
        // The device rolls back to the hub's text, which the result carries.
        var result = try await store.syncNoteTextRefusal(change, as: actor)
            ?? Self.rejected(change, reason: refusal.hasPrefix("too-large") ? "too-large" : "refused", detail: refusal)
        if case .object(var fields) = result, fields["detail"] == nil {
            fields["detail"] = .string(refusal)
            result = .object(fields)
        }
        return result
    }

    static func rejected(_ change: SyncChange, reason: String, detail: String?) -> JSONValue {
        var result: [String: JSONValue] = ["opId": .string(change.opId.text), "status": "rejected", "reason": .string(reason)]
        if let detail { result["detail"] = .string(detail) }
        return .object(result)
    }

    /// Results as this reader may be told them now: a note in a result's
    /// `current` is the note as it stands, with its text, or null when they
    /// may no longer read it (a stored result is replayed as it was first
    /// answered, but never with words its reader may not see today).
    func withNotesNow(_ results: [JSONValue], for actor: PermissionPolicy.Actor) async throws -> [JSONValue] {
        func noteId(_ result: JSONValue) -> UUID? {
            guard let current = result.field("current"), current.field("entity") == .string("note"),
                  case .string(let id)? = current.field("id") else { return nil }
            return UUID(text: id)
        }
        let notes = try await store.notesNow(ids: results.compactMap(noteId), for: actor, withText: true)
        return results.map { result in
            guard let id = noteId(result), case .object(var fields) = result else { return result }
            if case .readable(let now, let text)? = notes[id] {
                fields["current"] = Self.entry(note: id, fields: now, text: text)
            } else {
                fields["current"] = .null
            }
            return .object(fields)
        }
    }

    /// A note as a pull carries it: its fields now, with `text` and
    /// `textState` (the CRDT state, base64).
    static func entry(note id: UUID, fields: JSONValue, text: SyncedNoteText?) -> JSONValue {
        ["entity": "note", "id": .string(id.text), "fields": Self.fields(fields, with: text), "deleted": .bool(false)]
    }

    static func fields(_ fields: JSONValue, with text: SyncedNoteText?) -> JSONValue {
        guard case .object(var object) = fields, let text else { return fields }
        object["text"] = .string(text.text)
        object["textState"] = .string(Data(text.state).base64EncodedString())
        return .object(object)
    }

    /// `since`, `limit` and the changes of a sync request, every problem named.
    static func read(_ body: JSONValue, device: UUID) throws -> (since: Int64, limit: Int, changes: [SyncChange]) {
        guard case .object(let fields) = body else { throw HearthError.invalid(fields: ["": "must be a JSON object"]) }
        if let unknown = fields.keys.sorted().first(where: { !["since", "limit", "changes"].contains($0) }) {
            throw HearthError.invalid(fields: [unknown: "is not part of a sync request"])
        }
        guard case .number(let since)? = fields["since"], since >= 0, since.rounded() == since, since < 9e15 else {
            throw HearthError.invalid(fields: ["since": "must be the cursor from the last sync, or 0"])
        }
        var limit = defaultPage
        switch fields["limit"] {
        case nil: break
        case .number(let value)? where value.rounded() == value && (1...Double(maximumPage)).contains(value): limit = Int(value)
        default: throw HearthError.invalid(fields: ["limit": "must be a whole number from 1 to \(maximumPage)"])
        }
        var changes: [SyncChange] = []
        if let value = fields["changes"] {
            // Each change is read (a malformed one is 422 naming it) before
            // they are counted: a body both malformed and too long is malformed.
            changes = try SyncChange.changes(from: value, device: device.text)
            if changes.count > maximumPush {
                throw ProblemError(.contentTooLarge, type: "too-large",
                                   detail: "A push carries at most \(maximumPush) changes; send the rest in another")
            }
        }
        return (Int64(since), limit, changes)
    }

    /// The log entries this caller may see, as `{ seq, entity, id, op, fields,
    /// deleted }`, only the latest of each entity (each holds the whole entity),
    /// leaving out what the device's own push just wrote.
    /// `deleted` means "drop your copy": the entity is gone, or no longer
    /// shown to this person (a shared note made private).
    ///
    /// A note is sent as it is now, never as an old entry had it: an old
    /// page would otherwise carry the title of a note since made private, or
    /// today's text of one that was shared then (NoteAccess). Whether the
    /// reader hears of a note they may not read now (as `deleted`) is judged
    /// from the entries: only when one of them was shown to them.
    func visible(_ changes: [Change], to actor: PermissionPolicy.Actor, excluding own: Set<Int64>) async throws -> [JSONValue] {
        var latest: [String: Change] = [:]
        var changedByOthers: Set<String> = []
        var shown: Set<String> = []
        for change in changes {
            let key = change.entity.rawValue + "/" + change.entityId
            let wasShown = LiveVisibility.isVisible(change, to: actor)
            guard wasShown || change.entity == .note else { continue }
            if wasShown { shown.insert(key) }
            latest[key] = change
            if !own.contains(change.seq) { changedByOthers.insert(key) }
        }
        // An entity only this push changed is as the device has it; one that
        // others changed too is sent whole, as it stands after both.
        let sent = latest.filter { changedByOthers.contains($0.key) }.values.sorted { $0.seq < $1.seq }
        let notes = try await store.notesNow(ids: sent.filter { $0.entity == .note }.compactMap { UUID(text: $0.entityId) },
                                             for: actor, withText: true)
        return sent.compactMap { change -> JSONValue? in
            let key = change.entity.rawValue + "/" + change.entityId
            var fields: JSONValue? = change.op == .delete ? nil : change.payload
            if change.entity == .note {
                switch UUID(text: change.entityId).flatMap({ notes[$0] }) {
                case .readable(let now, let text)?:
                    fields = Self.fields(now, with: text)
                case .hidden?, .gone?, nil:
                    guard shown.contains(key) else { return nil }
                    fields = nil
                }
            }
            // What is gone, or no longer shown to this person, is named, not described.
            return [
                "seq": .number(Double(change.seq)), "entity": .string(change.entity.rawValue), "id": .string(change.entityId),
                "op": .string(change.op.rawValue), "fields": fields ?? .null, "deleted": .bool(fields == nil),
            ]
        }
    }
}
