import Foundation
import GRDB
import HearthCore
import HearthCRDT

/// What a device's push came to: a result for each change, in order, and
/// the log entries that record exactly what it pushed (an entity it changed
/// and nobody else did is not sent back to it).
public struct SyncPushOutcome: Sendable {
    public var results: [JSONValue]
    public var ownChanges: Set<Int64>
}

extension HearthStore {
    /// How far ahead of the hub's clock a device's reading may be; further
    /// and its change is refused, or it would win every later contest.
    public static let defaultMaximumSkew: TimeInterval = 5 * 60

    /// Applies a device's pushed changes in one transaction, field by field,
    /// the latest hybrid clock reading winning. A change already applied
    /// (its `opId` known) gets its first answer again and writes nothing; an
    /// `opId` reused for other content refuses the whole push with a conflict.
    /// A change the device may not make, or stamped too far ahead, is
    /// refused on its own, and its result carries the hub's current value.
    public func pushSync(
        _ changes: [SyncChange], since cursor: Int64, deviceId: UUID, as actor: PermissionPolicy.Actor,
        maximumSkew: TimeInterval = defaultMaximumSkew
    ) async throws -> SyncPushOutcome {
        let device = deviceId.text
        return try await write(by: "device:\(device)") { transaction in
            // Checked here, not before: a compaction in between would apply
            // changes whose results the device never hears of.
            try Self.checkSyncCursor(cursor, transaction.db)
            // Readings up to the hub's own are never "ahead", even when the
            // hub's clock was set back after devices heard a later one.
            let limit = max(transaction.time.millisecondsSince1970 + Int64(maximumSkew * 1000), transaction.clock.latest.milliseconds)
            var results: [JSONValue] = []
            // "entity/id" as the log names them, of changes applied whole.
            var applied: Set<String> = []
            for change in changes {
                if let earlier = try Row.fetchOne(transaction.db.cachedStatement(sql: "SELECT deviceId, digest, result FROM sync_pushes WHERE opId = ?"),
                                                  arguments: [change.opId.text]) {
                    guard earlier["deviceId"] == device, earlier["digest"] == change.digest else {
                        throw HearthError.conflict("opId \(change.opId.text) was already used for a different change")
                    }
                    results.append(try JSONValue(jsonText: earlier["result"]))
                    continue
                }
                let result: JSONValue
                if change.hlc.milliseconds > limit {
                    result = try Self.refused(change, "clock-ahead", actor: actor, transaction.db)
                } else {
                    transaction.clock.observe(change.hlc)
                    switch change.entity {
                    case .note: result = try Self.applyNote(change, actor: actor, in: &transaction)
                    case .medication: result = try Self.applyMedication(change, actor: actor, in: &transaction)
                    case .dose: result = try Self.applyDose(change, actor: actor, in: &transaction)
                    // Typing goes through the note's editing session (SyncController), never here.
                    case .noteText: throw HearthError.invalid(fields: ["entity": "note text is not applied by pushSync"])
                    }
                }
                try transaction.db.cachedExecute(sql: "INSERT INTO sync_pushes (opId, deviceId, digest, result, time) VALUES (?, ?, ?, ?, ?)",
                    arguments: [change.opId.text, device, change.digest, try result.jsonText(), transaction.time.millisecondsSince1970])
                results.append(result)
                if case .string("applied")? = result.field("status") {
                    // A dose answered by its key is logged under its id.
                    let logId = change.entity == .dose && UUID(text: change.id) == nil
                        ? try Self.dose(key: change.id, transaction.db)?.id.text ?? change.id : change.id
                    applied.insert(change.entity.logged.rawValue + "/" + logId)
                }
            }
            let own = transaction.changes.filter { applied.contains($0.entity.rawValue + "/" + $0.entityId) }.map(\.seq)
            return SyncPushOutcome(results: results, ownChanges: Set(own))
        }
    }

    /// The hub's latest clock reading; a device takes it in after each sync
    /// so that its next edit is stamped after everything it was sent.
    public func latestClockReading() -> HybridTime { clock.latest }

    // MARK: Per entity

    static func applyNote(_ change: SyncChange, actor: PermissionPolicy.Actor, in transaction: inout WriteTransaction) throws -> JSONValue {
        guard let id = UUID(text: change.id) else { return try refused(change, "not-found", actor: actor, transaction.db) }
        guard var note = try note(id: id, transaction.db) else {
            // A note purged while the device was away is not brought back empty.
            let purged = try Bool.fetchOne(transaction.db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM changes WHERE entity = 'note' AND entityId = ? AND op = 'delete')"),
                                           arguments: [id.text]) ?? false
            if purged { return try refused(change, "not-found", actor: actor, transaction.db) }
            return try createNote(id: id, change, actor: actor, in: &transaction)
        }
        guard PermissionPolicy.decide(actor, .view, note.resource) == .allow else {
            return try refused(change, "not-found", actor: actor, transaction.db)
        }
        if !change.fields.isEmpty, PermissionPolicy.decide(actor, .edit, note.resource) != .allow {
            return try refused(change, "forbidden", actor: actor, transaction.db)
        }
        // Who sees it, and whether they may change it, are its owner's to say.
        if note.ownerId != actor.personId,
           change.fields["visibility"].map({ $0 != .string(note.visibility.rawValue) }) ?? false
            || change.fields["readOnly"].map({ $0 != .bool(note.readOnly) }) ?? false
            || NoteCircle.senior(named: change.fields["circleOf"]).map({ $0 != note.circleOf }) ?? false {
            return try refused(change, "forbidden", actor: actor, transaction.db)
        }
        if change.deleted != nil, PermissionPolicy.decide(actor, .delete, note.resource) != .allow {
            return try refused(change, "forbidden", actor: actor, transaction.db)
        }
        var requested = change.fields
        if let deleted = change.deleted { requested["deleted"] = .bool(deleted) }
        let winners = try winningFields(of: change, among: requested.keys, transaction.db)
        let before = note
        var chosenCircle: UUID?
        for field in winners {
            switch (field, requested[field]) {
            case ("title", .string(let title)?): note.title = try Note.validatedTitle(title)
            case ("visibility", .string(let raw)?): note.visibility = Note.Visibility(rawValue: raw) ?? note.visibility
            case ("readOnly", .bool(let readOnly)?): note.readOnly = readOnly
            case ("circleOf", let value?): chosenCircle = NoteCircle.senior(named: value)
            case ("pinned", .bool(let pinned)?): note.pinned = pinned
            case ("deleted", .bool(let deleted)?): note.deletedAt = deleted ? (note.deletedAt ?? transaction.time) : nil
            default: break
            }
        }
        // Whose circle, by the same rule as the API's (a null says nothing).
        do {
            note.circleOf = try circle(chosen: chosenCircle, for: note, before: before, transaction.db)
        } catch HearthError.invalid {
            return try refused(change, "invalid-circle", actor: actor, transaction.db)
        }
        try setClocks(of: change, winners, transaction.db)
        if note != before {
            note.updatedAt = transaction.time
            try transaction.db.cachedExecute(sql: """
                    UPDATE notes SET title = ?, visibility = ?, readOnly = ?, circleOf = ?, pinned = ?, deletedAt = ?, updatedAt = ? WHERE id = ?
                    """,
                arguments: [note.title, note.visibility.rawValue, note.readOnly, note.circleOf?.text, note.pinned,
                            note.deletedAt?.millisecondsSince1970, note.updatedAt.millisecondsSince1970, id.text])
            try transaction.record(entity: .note, entityId: id.text, op: .update, payload: payload(of: note, was: before))
        }
        return try result(of: change, winners: winners, requested: requested.keys, current: current(note))
    }

    /// A note the device made offline, under the id it chose.
    static func createNote(id: UUID, _ change: SyncChange, actor: PermissionPolicy.Actor, in transaction: inout WriteTransaction) throws -> JSONValue {
        var visibility = Note.Visibility.private
        if case .string(let raw)? = change.fields["visibility"], let chosen = Note.Visibility(rawValue: raw) { visibility = chosen }
        var readOnly = false
        if case .bool(let given)? = change.fields["readOnly"] { readOnly = given }
        guard change.deleted != true,
              PermissionPolicy.decide(actor, .create, .note(owner: actor.personId, visibility: visibility, readOnly: readOnly)) == .allow else {
            return try refused(change, change.deleted == true ? "not-found" : "forbidden", actor: actor, transaction.db)
        }
        guard let owner = try person(id: actor.personId, transaction.db) else {
            return try refused(change, "not-found", actor: actor, transaction.db)
        }
        let circle: UUID?
        do {
            circle = try NoteCircle.senior(chosen: NoteCircle.senior(named: change.fields["circleOf"]), visibility: visibility,
                                           owner: try circleOwner(owner, transaction.db))
        } catch HearthError.invalid {
            return try refused(change, "invalid-circle", actor: actor, transaction.db)
        }
        var title = ""
        if case .string(let given)? = change.fields["title"] { title = try Note.validatedTitle(given) }
        var pinned = false
        if case .bool(let given)? = change.fields["pinned"] { pinned = given }
        let note = Note(id: id, ownerId: actor.personId, title: title, visibility: visibility, readOnly: readOnly, circleOf: circle,
                        pinned: pinned, createdAt: transaction.time, updatedAt: transaction.time, deletedAt: nil, text: "")
        try insertNote(note, state: NoteText(replica: ReplicaRange.random()).encodeState(), in: &transaction)
        try setClocks(of: change, Array(change.fields.keys), transaction.db)
        return try result(of: change, winners: Array(change.fields.keys), requested: change.fields.keys, current: current(note))
    }

    static func applyMedication(_ change: SyncChange, actor: PermissionPolicy.Actor, in transaction: inout WriteTransaction) throws -> JSONValue {
        guard let id = UUID(text: change.id), let before = try medication(id: id, transaction.db),
              PermissionPolicy.decide(actor, .view, .medications(of: before.personId)) == .allow
        else { return try refused(change, "not-found", actor: actor, transaction.db) }
        guard PermissionPolicy.decide(actor, .edit, .medications(of: before.personId)) == .allow else {
            return try refused(change, "forbidden", actor: actor, transaction.db)
        }
        let winners = try winningFields(of: change, among: change.fields.keys, transaction.db)
        var after = before
        for field in winners {
            switch (field, change.fields[field]) {
            case ("name", .string(let text)?): after.name = text
            case ("strength", .string(let text)?): after.strength = text
            case ("unit", .string(let text)?): after.unit = text
            case ("form", .string(let text)?): after.form = text
            case ("instructions", .string(let text)?): after.instructions = text
            case ("appearance", .string(let text)?): after.appearance = text
            case ("packageSize", .number(let amount)?): after.packageSize = amount
            case ("packageSize", .null?): after.packageSize = nil
            case ("lowStockDays", .number(let days)?): after.lowStockDays = Int(days)
            case ("lowStockDays", .null?): after.lowStockDays = nil
            case ("active", .bool(let active)?): after.active = active
            default: break
            }
        }
        after = try after.validated()
        try setClocks(of: change, winners, transaction.db)
        if after != before {
            after.revision = before.revision + 1
            after.updatedAt = transaction.time
            try saveRevision(after, in: &transaction)
        }
        return try result(of: change, winners: winners, requested: change.fields.keys, current: current(after))
    }

    /// A planned dose answered (taken or skipped), by its key. The first
    /// answer records the dose; a later one corrects it only if it was
    /// stamped after the answer on record, so two devices answering offline
    /// leave one dose, as the later of them said.
    static func applyDose(_ change: SyncChange, actor: PermissionPolicy.Actor, in transaction: inout WriteTransaction) throws -> JSONValue {
        let zone = try householdTimeZone(transaction.db)
        if let doseId = UUID(text: change.id) {
            // A dose already on record, by its id (as-needed doses have no key):
            // corrected like any other.
            guard let dose = try dose(id: doseId, transaction.db),
                  PermissionPolicy.decide(actor, .view, .care(of: dose.personId)) == .allow
            else { return try refused(change, "not-found", actor: actor, transaction.db) }
            return try correctDose(dose, change, actor: actor, in: &transaction)
        }
        guard let (planned, medication) = try plannedDose(key: change.id, in: zone, transaction.db),
              PermissionPolicy.decide(actor, .view, .care(of: medication.personId)) == .allow
        else { return try refused(change, "not-found", actor: actor, transaction.db) }
        guard PermissionPolicy.decide(actor, .create, .care(of: medication.personId)) == .allow else {
            return try refused(change, "forbidden", actor: actor, transaction.db)
        }
        if let recorded = try dose(key: planned.key, transaction.db), recorded.status.isAnswered {
            return try correctDose(recorded, change, actor: actor, in: &transaction)
        }
        guard medication.active, planned.due.timeIntervalSince(transaction.time) <= earliestAnswer else {
            return try refused(change, "not-answerable", actor: actor, transaction.db)
        }
        // Sync's field rules let only taken or skipped through; a change without a status answers nothing.
        let text = { (field: String) -> String? in if case .string(let value)? = change.fields[field] { value } else { nil } }
        guard let answer = try? DoseAnswer(status: text("status"), takenAt: text("takenAt").flatMap(ISOTime.date(from:)),
                                           reason: text("reason"), snoozeMinutes: nil)
        else { return try refused(change, "not-answerable", actor: actor, transaction.db) }
        let (dose, _) = try self.answer(planned, of: medication, answer, recordedBy: actor.personId, in: &transaction)
        // The whole answer is the device's, defaults included (a `takenAt`
        // of "now"), so a later-stamped edit of any part of it wins.
        try setClocks(of: change, ["status", "takenAt", "reason"], clockId: planned.key, transaction.db)
        return try result(of: change, winners: Array(change.fields.keys), requested: change.fields.keys, current: current(dose))
    }

    static func correctDose(_ recorded: Dose, _ change: SyncChange, actor: PermissionPolicy.Actor, in transaction: inout WriteTransaction) throws -> JSONValue {
        let clockId = recorded.key ?? recorded.id.text
        let winners = try winningFields(of: change, among: change.fields.keys, clockId: clockId, transaction.db)
        // A change that loses to a later one changes nothing, and says so. One
        // that would win follows the API's rule: a senior puts right what she
        // recorded; her caregivers, any of her doses.
        if !winners.isEmpty,
           PermissionPolicy.decide(actor, .edit, .doseRecord(of: recorded.personId, recordedBy: recorded.recordedBy)) == .deny {
            return try refused(change, "forbidden", actor: actor, transaction.db)
        }
        var status: Dose.Status?
        var takenAt: Date?
        var reason: String?
        for field in winners {
            switch (field, change.fields[field]) {
            case ("status", .string(let raw)?): status = Dose.Status(rawValue: raw)
            case ("takenAt", .string(let text)?): takenAt = ISOTime.date(from: text)
            case ("reason", .string(let text)?): reason = text
            case ("reason", .null?): reason = ""
            default: break
            }
        }
        // A skipped dose has no time taken, whatever else the change said.
        if (status ?? recorded.status) != .taken { takenAt = nil }
        let dose = try correct(recorded, takenAt: takenAt.map { min($0, transaction.time) }, status: status, reason: reason,
                               recordedBy: actor.personId, in: &transaction)
        // What this correction changed (a field it implied, such as a
        // `takenAt` cleared by "skipped", too) carries the device's reading.
        let implied = SyncChange.fieldKinds(of: .dose).keys.filter { recorded.json.field($0) != dose.json.field($0) }
        try setClocks(of: change, Array(Set(winners).union(implied)).sorted(), clockId: clockId, transaction.db)
        return try result(of: change, winners: winners, requested: change.fields.keys, current: current(dose))
    }

    // MARK: Clocks and results

    /// The fields of `change` whose last write was stamped before it (or never stamped).
    /// `clockId`: where the entity's clocks are kept when not under the
    /// change's id (a dose is clocked under its key when it has one).
    static func winningFields(of change: SyncChange, among fields: some Collection<String>, clockId: String? = nil, _ db: Database) throws -> [String] {
        try fields.sorted().filter { field in
            guard let text = try String.fetchOne(db.cachedStatement(sql: "SELECT hlc FROM sync_clocks WHERE entity = ? AND entityId = ? AND field = ?"),
                                                 arguments: [change.entity.rawValue, clockId ?? change.id, field]),
                  let stored = HybridTime(text)
            else { return true }
            return stored < change.hlc
        }
    }

    static func setClocks(of change: SyncChange, _ fields: [String], clockId: String? = nil, _ db: Database) throws {
        let reading = change.hlc.description
        for field in fields {
            try WriteTransaction.setClock(reading, of: change.entity.rawValue, id: clockId ?? change.id, field: field, db)
        }
    }

    /// "applied" when every field won; otherwise "superseded", with the
    /// value that stands so the device can show it.
    static func result(of change: SyncChange, winners: [String], requested: some Collection<String>, current: JSONValue) throws -> JSONValue {
        let lost = requested.filter { !winners.contains($0) }.sorted()
        var result: [String: JSONValue] = ["opId": .string(change.opId.text)]
        if lost.isEmpty {
            result["status"] = "applied"
            // The hub may keep a field other than as sent (a name trimmed, a
            // time taken in the future brought back to now); it then says what
            // it holds, or the device's copy would differ from it until that
            // field next changed. (A note's typing merges; it is never echoed.)
            let stored = current.field("fields")
            if change.entity != .noteText, winners.contains(where: { stored?.field($0) != change.fields[$0] }) {
                result["current"] = current
            }
        } else {
            result["status"] = "superseded"
            result["supersededFields"] = .array(lost.map(JSONValue.string))
            result["current"] = current
        }
        return .object(result)
    }

    /// A change refused as a whole: why, and what the hub holds instead
    /// (nothing, when the device may not see it: it should drop its copy).
    static func refused(_ change: SyncChange, _ reason: String, actor: PermissionPolicy.Actor, _ db: Database) throws -> JSONValue {
        var result: [String: JSONValue] = ["opId": .string(change.opId.text), "status": "rejected", "reason": .string(reason)]
        result["current"] = try currentValue(of: change.entity, id: change.id, visibleTo: actor, db) ?? .null
        return .object(result)
    }

    static func currentValue(of entity: SyncChange.Entity, id: String, visibleTo actor: PermissionPolicy.Actor, _ db: Database) throws -> JSONValue? {
        switch entity {
        case .note, .noteText:
            guard let id = UUID(text: id), let note = try note(id: id, db),
                  PermissionPolicy.decide(actor, .view, note.resource) == .allow else { return nil }
            return current(note)
        case .medication:
            guard let id = UUID(text: id), let medication = try medication(id: id, db),
                  PermissionPolicy.decide(actor, .view, .medications(of: medication.personId)) == .allow else { return nil }
            return current(medication)
        case .dose:
            let dose = try UUID(text: id).flatMap { try self.dose(id: $0, db) } ?? self.dose(key: id, db)
            guard let dose, PermissionPolicy.decide(actor, .view, .care(of: dose.personId)) == .allow else { return nil }
            return current(dose)
        }
    }

    /// An entity as pulls carry it: `{ entity, id, fields, deleted }`.
    static func current(_ note: Note) -> JSONValue {
        ["entity": "note", "id": .string(note.id.text), "fields": payload(of: note), "deleted": .bool(false)]
    }

    static func current(_ medication: Medication) -> JSONValue {
        ["entity": "medication", "id": .string(medication.id.text), "fields": medication.json, "deleted": .bool(false)]
    }

    static func current(_ dose: Dose) -> JSONValue {
        ["entity": "dose", "id": .string(dose.id.text), "fields": dose.json, "deleted": .bool(false)]
    }
}
