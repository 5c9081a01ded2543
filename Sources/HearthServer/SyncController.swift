import Foundation
import HearthCore
import HearthStore
import Hummingbird

/// `/api/v1/sync`: an offline device pushes what it changed and pulls what
/// it missed, in one round trip, through the change log every other client
/// reads (DESIGN.md, One write path). `/api/v1/sync/snapshot` starts a device
/// afresh when its cursor is older than the log the hub keeps.
struct SyncController {
    let store: HearthStore
    /// How far ahead of the hub a device's clock reading may be.
    var maximumSkew: TimeInterval = HearthStore.defaultMaximumSkew

    /// Changes one push may carry; a device with more sends them in turns.
    static let maximumPush = 500
    static let defaultPage = 500
    static let maximumPage = 2000

    func addRoutes(to router: Router<HearthRequestContext>) {
        router.post("/api/v1/sync") { request, context -> JSONValue in
            let actor = try context.requirePaired()
            guard let deviceId = context.caller.deviceId else { throw HearthError.notFound(what: "That device") }
            let body = try await request.decode(as: JSONValue.self, context: context)
            let (since, limit, changes) = try Self.read(body, device: deviceId)
            // A device that must resync first has nothing applied (checked in
            // the push's transaction): it would not hear what became of it.
            let outcome = try await store.pushSync(changes, since: since, deviceId: deviceId, as: actor, maximumSkew: maximumSkew)
            let page = try await store.syncPage(after: since, limit: limit)
            let pulled = Self.visible(page.changes, to: context.caller, excluding: outcome.ownChanges)
            return [
                "results": .array(outcome.results),
                "changes": .array(pulled),
                "cursor": .number(Double(page.cursor)),
                "more": .bool(page.more),
                "hlc": .string(store.latestClockReading().description),
            ]
        }
        router.get("/api/v1/sync/snapshot") { _, context -> JSONValue in
            try context.requirePaired()
            let snapshot = try await store.syncSnapshot()
            return [
                // Only what the device is to keep: a note made private is left out.
                "entities": .array(Self.visible(snapshot.changes, to: context.caller, excluding: []).filter { $0.field("deleted") != .bool(true) }),
                "cursor": .number(Double(snapshot.cursor)),
                "hlc": .string(store.latestClockReading().description),
            ]
        }
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
        case nil, .null?: break
        case .number(let value)? where value.rounded() == value && (1...Double(maximumPage)).contains(value): limit = Int(value)
        default: throw HearthError.invalid(fields: ["limit": "must be a whole number from 1 to \(maximumPage)"])
        }
        var changes: [SyncChange] = []
        if let value = fields["changes"], value != .null {
            if case .array(let items) = value, items.count > maximumPush {
                throw ProblemError(.contentTooLarge, type: "too-large",
                                   detail: "A push carries at most \(maximumPush) changes; send the rest in another")
            }
            changes = try SyncChange.changes(from: value, device: device.uuidString.lowercased())
        }
        return (Int64(since), limit, changes)
    }

    /// The log entries this caller may see, as `{ seq, entity, id, op, fields,
    /// deleted }`, only the latest of each entity (each holds the whole entity),
    /// leaving out what the device's own push just wrote.
    /// `deleted` means "drop your copy": the entity is gone, or no longer
    /// shown to this person (a shared note made private).
    static func visible(_ changes: [Change], to caller: Caller, excluding own: Set<Int64>) -> [JSONValue] {
        var latest: [String: Change] = [:]
        var changedByOthers: Set<String> = []
        for change in changes where LiveVisibility.isVisible(change, to: caller) {
            let key = change.entity + "/" + change.entityId
            latest[key] = change
            if !own.contains(change.seq) { changedByOthers.insert(key) }
        }
        // An entity only this push changed is as the device has it; one that
        // others changed too is sent whole, as it stands after both.
        return latest.filter { changedByOthers.contains($0.key) }.values.sorted { $0.seq < $1.seq }.map { change in
            var gone = change.op == .delete
            if change.entity == "note", let actor = caller.policyActor,
               case .string(let owner)? = change.payload.field("ownerId"), let ownerId = UUID(uuidString: owner),
               case .string(let raw)? = change.payload.field("visibility"), let visibility = PermissionPolicy.NoteVisibility(rawValue: raw),
               PermissionPolicy.decide(actor, .view, .note(owner: ownerId, visibility: visibility)) != .allow {
                gone = true
            }
            // What is gone, or no longer shown to this person, is named, not described.
            return [
                "seq": .number(Double(change.seq)), "entity": .string(change.entity), "id": .string(change.entityId),
                "op": .string(change.op.rawValue), "fields": gone ? .null : change.payload, "deleted": .bool(gone),
            ]
        }
    }
}
