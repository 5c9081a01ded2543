import Foundation
import GRDB
import HearthCore

/// What one reminder pass did, and when the next one is needed.
public struct ReminderPass: Sendable, Hashable {
    public var raised: [CareAlert] = []
    public var repeated: [CareAlert] = []
    /// The earliest moment a planned dose needs looking at again.
    public var nextCheck: Date?

    public init(raised: [CareAlert] = [], repeated: [CareAlert] = [], nextCheck: Date? = nil) {
        self.raised = raised
        self.repeated = repeated
        self.nextCheck = nextCheck
    }
}

extension HearthStore {
    /// How far back a pass looks for doses that fell due while the hub was off.
    public static let reminderLookback: TimeInterval = 7 * 86_400
    /// How far ahead a pass looks for the next dose to wake for.
    static let reminderLookahead: TimeInterval = 2 * 86_400

    public func reminderSettings() async throws -> ReminderSettings {
        try await pool.read { db in try Self.reminderSettings(db) }
    }

    static func reminderSettings(_ db: Database) throws -> ReminderSettings {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT graceMinutes, repeatMinutes FROM household LIMIT 1")) else {
            return ReminderSettings()
        }
        return ReminderSettings(graceMinutes: row["graceMinutes"], repeatMinutes: row["repeatMinutes"])
    }

    /// How persistent reminders are, the household's: an admin's to change.
    public func updateReminderSettings(_ settings: ReminderSettings, as editor: PermissionPolicy.Actor, by origin: String) async throws -> ReminderSettings {
        let settings = try settings.validated()
        return try await write(by: origin) { transaction in
            try PermissionPolicy.require(editor, .edit, .household, what: "The household")
            guard let household = try Self.household(transaction.db) else { throw HearthError.notFound(what: "The household") }
            guard try Self.reminderSettings(transaction.db) != settings else { return settings }
            try transaction.db.cachedExecute(sql: "UPDATE household SET graceMinutes = ?, repeatMinutes = ?",
                                       arguments: [settings.graceMinutes, settings.repeatMinutes])
            try transaction.record(entity: .household, entityId: household.id.text, op: .update, payload: [
                "graceMinutes": .number(Double(settings.graceMinutes)), "repeatMinutes": .number(Double(settings.repeatMinutes)),
            ])
            return settings
        }
    }

    /// One pass of the reminder service at `now`: every planned dose of an
    /// active medication that has fallen due is raised, reminded of again,
    /// or marked missed, by `ReminderRules`. It runs in one write
    /// transaction, so a dose answered at the same moment is never also
    /// marked missed, and every alert carries a once-key, so no pass —
    /// after a restart, a power cut or a clock jump — raises one twice.
    /// Only the reminder service runs it (`Actor.reminderService`).
    public func remind(at now: Date, as reminders: PermissionPolicy.Actor) async throws -> ReminderPass {
        try await write(by: "hub") { transaction in
            try PermissionPolicy.require(reminders, .edit, .doseReminders, what: "The reminders")
            let db = transaction.db
            if let last = try Self.lastStoredTime(db), now < last.addingTimeInterval(-Self.clockTolerance) {
                // Time went backwards: the clock was set wrong, or a Pi booted without one.
                try Self.raiseClockAlert(reason: "earlier-than-stored", details: [
                    "hubTime": .of(now), "lastStoredTime": .of(last),
                ], in: &transaction)
            }
            let settings = try Self.reminderSettings(db)
            let zone = try Self.householdTimeZone(db)
            let medications = try Row.fetchAll(db.cachedStatement(sql: """
                SELECT \(Self.medicationColumns) FROM \(Self.medicationSource)
                WHERE m.active = 1 AND m.personId IN (SELECT id FROM people WHERE archivedAt IS NULL)
                """)).map(Self.medication(from:))
            let byId = Dictionary(uniqueKeysWithValues: medications.map { ($0.id, $0) })
            let start = now.addingTimeInterval(-Self.reminderLookback)
            let end = now.addingTimeInterval(Self.reminderLookahead)
            let planned = try Self.scheduleVersions(medicationIds: medications.map(\.id), since: start, db)
                .flatMap { $0.doses(from: start, to: end, in: zone) }
            let recorded = try Self.recordedDoses(from: start, to: end, db)
            var pass = ReminderPass()
            for dose in planned {
                guard let medication = byId[dose.medicationId] else { continue }
                var existing = recorded[dose.key]
                if existing == nil, dose.due <= now, let stored = try Self.dose(key: dose.key, db) {
                    // Recorded under another due time (the household moved time zone).
                    existing = (stored.id, ReminderRules.Recorded(status: stored.status, snoozedUntil: stored.snoozedUntil, remindedAt: stored.dueAt))
                }
                let step = ReminderRules.step(for: dose, recorded: existing?.state, at: now, settings: settings)
                if let next = step.nextCheck { pass.nextCheck = min(pass.nextCheck ?? next, next) }
                switch step.action {
                case .nothing:
                    break
                case .raiseDue:
                    let row = try Self.newDose(dose, of: medication, status: .due, at: now, in: &transaction)
                    if let alert = try Self.raiseOnce(.doseDue, for: dose, dose: row, of: medication, at: now, in: &transaction) {
                        pass.raised.append(alert)
                    }
                case .remindAgain:
                    guard let id = existing?.id else { continue }
                    try Self.remindAgain(dose, id: id, of: medication, at: now, in: &transaction, pass: &pass)
                case .markMissed:
                    try Self.markMissed(dose, id: existing?.id, of: medication, at: now, in: &transaction, pass: &pass)
                }
            }
            return pass
        }
    }

    /// What is recorded of the doses due in a window, by their keys.
    static func recordedDoses(from start: Date, to end: Date, _ db: Database) throws -> [String: (id: UUID, state: ReminderRules.Recorded)] {
        var recorded: [String: (id: UUID, state: ReminderRules.Recorded)] = [:]
        for row in try Row.fetchAll(db.cachedStatement(sql: """
            SELECT id, key, status, snoozedUntil, remindedAt FROM doses WHERE key IS NOT NULL AND dueAt >= ? AND dueAt < ?
            """), arguments: [start.millisecondsSince1970, end.millisecondsSince1970]) {
            guard let id = UUID(text: row["id"]), let status = Dose.Status(rawValue: row["status"]) else { continue }
            recorded[row["key"]] = (id, ReminderRules.Recorded(
                status: status, snoozedUntil: (row["snoozedUntil"] as Int64?).map(Date.init(millisecondsSince1970:)),
                remindedAt: (row["remindedAt"] as Int64?).map(Date.init(millisecondsSince1970:))))
        }
        return recorded
    }

    /// A dose still unanswered (or snoozed until now) is due again, and its
    /// reminder rings again (raised anew if it never was).
    static func remindAgain(_ dose: DueDose, id: UUID, of medication: Medication, at now: Date,
                            in transaction: inout WriteTransaction, pass: inout ReminderPass) throws {
        let db = transaction.db
        guard var row = try Self.dose(id: id, db) else { return }
        if row.status != .due {
            row.status = .due
            row.updatedAt = transaction.time
            try saveDose(row, isNew: false, in: &transaction)
        }
        try db.cachedExecute(sql: "UPDATE doses SET remindedAt = ? WHERE id = ?", arguments: [now.millisecondsSince1970, id.text])
        let alerts = try Self.alerts(sql: "SELECT * FROM alerts WHERE onceKey = ?", arguments: ["dose-due:" + dose.key], db)
        if var alert = alerts.first, alert.acknowledgedAt == nil {
            alert.notifiedAt = now
            alert.repeats += 1
            alert.resolvedAt = nil
            try saveAlert(alert, in: &transaction)
            pass.repeated.append(alert)
        } else if alerts.isEmpty, let alert = try raiseOnce(.doseDue, for: dose, dose: row, of: medication, at: now, in: &transaction) {
            pass.raised.append(alert)
        }
    }

    /// A dose past its grace is missed: its reminder closes and its
    /// caregivers are told, once.
    static func markMissed(_ dose: DueDose, id: UUID?, of medication: Medication, at now: Date,
                           in transaction: inout WriteTransaction, pass: inout ReminderPass) throws {
        var row: Dose
        if let id, let stored = try Self.dose(id: id, transaction.db) {
            row = stored
            row.status = .missed
            row.missedAt = now
            row.updatedAt = transaction.time
            try saveDose(row, isNew: false, in: &transaction)
        } else {
            row = try newDose(dose, of: medication, status: .missed, at: now, in: &transaction)
        }
        try resolveAlerts(doseId: row.id, kinds: [.doseDue], in: &transaction)
        if let alert = try raiseOnce(.doseMissed, for: dose, dose: row, of: medication, at: now, in: &transaction) {
            pass.raised.append(alert)
        }
    }

    static func newDose(_ planned: DueDose, of medication: Medication, status: Dose.Status, at now: Date, in transaction: inout WriteTransaction) throws -> Dose {
        let dose = Dose(
            id: UUID.timeOrdered(at: transaction.time), key: planned.key, medicationId: medication.id, personId: medication.personId, scheduleId: planned.scheduleId,
            dueAt: planned.due, plannedDate: planned.date, plannedTime: planned.time, amount: planned.amount, status: status,
            missedAt: status == .missed ? now : nil, createdAt: transaction.time, updatedAt: transaction.time)
        try saveDose(dose, isNew: true, in: &transaction)
        if status == .due {
            try transaction.db.cachedExecute(sql: "UPDATE doses SET remindedAt = ? WHERE id = ?", arguments: [now.millisecondsSince1970, dose.id.text])
        }
        return dose
    }

    /// Raises a dose's alert unless its once-key was ever used; nil when it was.
    static func raiseOnce(
        _ kind: CareAlert.Kind, for planned: DueDose, dose: Dose, of medication: Medication, at now: Date, in transaction: inout WriteTransaction
    ) throws -> CareAlert? {
        let onceKey = "\(kind.rawValue):\(planned.key)"
        guard try Int.fetchOne(transaction.db.cachedStatement(sql: "SELECT 1 FROM alerts WHERE onceKey = ?"), arguments: [onceKey]) == nil else { return nil }
        let personName = try person(id: medication.personId, transaction.db)?.name ?? ""
        let alert = CareAlert(
            kind: kind, audience: kind == .doseDue ? .senior : .caregivers, personId: medication.personId, doseId: dose.id,
            medicationId: medication.id, raisedBy: "hub", raisedAt: now,
            details: [
                "medicationName": .string(medication.name), "strength": .string(medication.strength),
                "amount": .number(planned.amount), "unit": .string(medication.unit), "appearance": .string(medication.appearance),
                "dueAt": .of(planned.due), "plannedTime": .string(planned.time.description), "personName": .string(personName),
                // What a reminder's Taken, Skip and Later answer (POST /doses).
                "doseKey": .string(planned.key),
            ])
        try insertAlert(alert, onceKey: onceKey, in: &transaction)
        return alert
    }
}
