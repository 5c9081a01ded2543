import Foundation
import GRDB
import HearthCore
import HearthCRDT

extension HearthMirror {
    /// Takes in one sync response in one transaction: drops the outbox
    /// entries the hub answered, takes the hub's value where a change lost
    /// or was refused, applies what was pulled, lays the still-pending
    /// changes back over it, and moves the cursor.
    /// Returns whether what this device's person may see may have changed
    /// (a care link of theirs, their role): what the copy holds was chosen
    /// for who they were, so it must start again from a snapshot.
    @discardableResult
    func apply(response: JSONValue, sent: [OutboxEntry]) async throws -> Bool {
        let arrived = clock.now()
        return try await writer.write { db in
            let sentByOpId = Dictionary(sent.map { ($0.opId, $0) }, uniquingKeysWith: { first, _ in first })
            var retexted: Set<String> = []
            var clockAhead = false
            for result in response.field("results")?.array ?? [] {
                guard let opId = result.field("opId")?.string, let entry = sentByOpId[opId] else { continue }
                if result.field("reason") == "clock-ahead" { clockAhead = true }
                try db.execute(sql: "DELETE FROM outbox WHERE opId = ?", arguments: [opId])
                // Applied as sent: nothing to take. Applied but kept otherwise
                // (trimmed, say), lost, or refused: the hub's value stands
                // (none, when this person may not see it).
                if result.field("status")?.string == "applied", result.field("current") == nil { continue }
                switch result.field("current") {
                case let current? where current != .null:
                    if try Self.take(current, db) { retexted.insert(entry.entityId) }
                default:
                    if let entity = SyncChange.Entity(rawValue: entry.entity)?.logged {
                        try Self.removeEntity(entity, entry.entityId, db)
                    }
                }
            }
            for change in response.field("changes")?.array ?? [] {
                if try Self.take(change, db), let id = change.field("id")?.string { retexted.insert(id) }
            }
            // The hub's time first: a clock set back restamps by it.
            try Self.learnHubTime(from: response, arrived: arrived, db)
            if clockAhead { try Self.setClockBack(to: response, at: arrived, db) }
            try Self.layOverPending(retexted: retexted, db)
            if let cursor = response.field("cursor")?.double { try Self.setMeta(.cursor, String(Int64(cursor)), db) }
            try Self.observeHub(response, db)
            return try Self.changesWhatIMaySee(response.field("changes")?.array ?? [], db)
        }
    }

    /// Whether a pulled change is of this device's person (their role) or
    /// one of their care links. A page carries only the latest entry of
    /// each, so a link made and then named (an alias, an update) looks like
    /// an update: any entry of theirs counts. Renames and aliases are rare;
    /// a snapshot more is cheap at a household's size.
    static func changesWhatIMaySee(_ changes: [JSONValue], _ db: Database) throws -> Bool {
        guard let person = try meta(.personId, db) else { return false }
        return changes.contains { change in
            switch change.field("entity")?.string {
            case "careLink": change.field("id")?.string?.hasPrefix(person + ":") == true
            case "person": change.field("id")?.string == person
            default: false
            }
        }
    }

    /// This device's clock ran ahead of the hub's and its change was refused:
    /// every later reading would be refused too, as the clock never goes
    /// back. Starts it again from the hub's reading, and stamps the changes
    /// not yet sent afresh (ones sent before keep theirs: a retry must match).
    static func setClockBack(to response: JSONValue, at arrived: Date, _ db: Database) throws {
        guard let text = response.field("hlc")?.string, let hub = HybridTime(text), let device = try meta(.deviceId, db) else { return }
        var clock = HybridClock(node: device, latest: hub)
        let now = try hubMilliseconds(at: arrived, db)
        let unsent = try Row.fetchAll(db, sql: "SELECT seq, change FROM outbox WHERE inFlight = 0 ORDER BY seq")
        for row in unsent {
            guard case .object(var change) = try JSONValue(jsonText: row["change"]),
                  let stamp = change["hlc"]?.string.flatMap(HybridTime.init), stamp > hub else { continue }
            change["hlc"] = .string(clock.next(physical: now).description)
            try db.execute(sql: "UPDATE outbox SET change = ? WHERE seq = ?", arguments: [try JSONValue.object(change).jsonText(), row["seq"] as Int64])
        }
        try setMeta(.clock, clock.latest.description, db)
    }

    /// Starts from a snapshot (the first sync, or the cursor was older than
    /// the hub's log): the copy becomes the snapshot, pending changes laid
    /// over it. The text of a note the hub has not heard of yet stays.
    func replace(withSnapshot snapshot: JSONValue) async throws {
        let arrived = clock.now()
        try await writer.write { db in
            try Self.learnHubTime(from: snapshot, arrived: arrived, db)
            try db.execute(sql: "DELETE FROM entities")
            try db.execute(sql: "DELETE FROM note_texts WHERE noteId NOT IN (SELECT entityId FROM outbox WHERE entity IN ('note', 'noteText'))")
            var retexted: Set<String> = []
            for entity in snapshot.field("entities")?.array ?? [] {
                if try Self.take(entity, db), let id = entity.field("id")?.string { retexted.insert(id) }
            }
            try Self.layOverPending(retexted: retexted, db)
            if let cursor = snapshot.field("cursor")?.double { try Self.setMeta(.cursor, String(Int64(cursor)), db) }
            try Self.observeHub(snapshot, db)
        }
    }

    /// Takes in an entity as the hub sent it; true when it replaced a note's text.
    static func take(_ value: JSONValue, _ db: Database) throws -> Bool {
        // A kind of thing this library does not know (from a newer hub) is not kept: nothing here reads it.
        guard let entity = value.field("entity")?.string.flatMap(ChangeEntity.init(rawValue:)), let id = value.field("id")?.string else {
            return false
        }
        guard value.field("deleted") != .bool(true), case .object(var fields)? = value.field("fields") else {
            try removeEntity(entity, id, db)
            return false
        }
        if entity == .dose, let key = fields["key"]?.string, key != id {
            // The hub's record of a dose answered here by its key replaces the local one.
            try removeEntity(.dose, key, db)
        }
        var retexted = false
        if entity == .note, let encoded = fields.removeValue(forKey: "textState")?.string, let state = Data(base64Encoded: encoded) {
            let text = fields.removeValue(forKey: "text")?.string ?? ""
            try db.execute(sql: """
                INSERT INTO note_texts (noteId, text, state) VALUES (?, ?, ?)
                ON CONFLICT (noteId) DO UPDATE SET text = excluded.text, state = excluded.state
                """, arguments: [id, text, state])
            retexted = true
        }
        try setFields(fields, entity, id, db)
        return retexted
    }

    /// Lays every pending change back over the copy: fields as the device
    /// set them, and its own typing applied to each note's new state.
    static func layOverPending(retexted: Set<String>, _ db: Database) throws {
        let replica = try replica(db)
        var texts: [String: NoteText] = [:]
        for entry in try outbox(db) {
            if entry.entity != SyncChange.Entity.noteText.rawValue {
                try layOver(entry, db)
                continue
            }
            guard retexted.contains(entry.entityId), let operations = Self.operations(of: entry) else { continue }
            if texts[entry.entityId] == nil {
                guard let state = try Data.fetchOne(db, sql: "SELECT state FROM note_texts WHERE noteId = ?", arguments: [entry.entityId]) else { continue }
                texts[entry.entityId] = try NoteText.decodeState([UInt8](state), replica: replica)
            }
            // Characters the hub already has are skipped; the rest go on top.
            for operation in operations { _ = try? texts[entry.entityId]?.apply(operation, waitForMissing: false) }
        }
        for (noteId, text) in texts {
            try db.execute(sql: "UPDATE note_texts SET text = ?, state = ? WHERE noteId = ?",
                           arguments: [text.text, Data(text.encodeState()), noteId])
        }
    }

    static func operations(of entry: OutboxEntry) -> [NoteOperation]? {
        guard let encoded = entry.change.field("fields")?.field("operations")?.string,
              let bytes = Data(base64Encoded: encoded) else { return nil }
        return try? NoteOperation.decode([UInt8](bytes))
    }

    /// This device's replica id in every note's CRDT, chosen once.
    static func replica(_ db: Database) throws -> UInt64 {
        if let text = try meta(.replica, db), let replica = UInt64(text) { return replica }
        let replica = ReplicaRange.random()
        try setMeta(.replica, String(replica), db)
        return replica
    }

    /// Takes in the hub's clock, so the next local edit is stamped after
    /// everything this device was sent.
    /// How far the hub's time is ahead of this device's clock (negative:
    /// behind), from the `time` an answer carries and when it arrived here.
    /// Off by at most the answer's time on the wire: milliseconds on a home
    /// network, well inside the hub's allowance for clocks ahead.
    static func learnHubTime(from response: JSONValue, arrived: Date, _ db: Database) throws {
        guard let time = response.field("time")?.string.flatMap(ISOTime.date(from:)) else { return }
        let offset = Int64((time.timeIntervalSince(arrived) * 1000).rounded())
        try setMeta(.hubOffset, String(offset), db)
    }

    static func observeHub(_ response: JSONValue, _ db: Database) throws {
        guard let text = response.field("hlc")?.string, let hub = HybridTime(text), let device = try meta(.deviceId, db) else { return }
        var clock = HybridClock(node: device, latest: try meta(.clock, db).flatMap(HybridTime.init))
        clock.observe(hub)
        try setMeta(.clock, clock.latest.description, db)
    }
}
