import Foundation
import GRDB
import HearthCore

/// A dose some schedule plans for a day, with what has been recorded of it.
public struct PlannedDose: Sendable, Hashable {
    public var planned: DueDose
    public var medication: Medication
    public var dose: Dose?
    /// Planned before its schedule was entered (`dosesBeforeEntry`): to be
    /// answered, never reminded of.
    public var beforeEntry = false
}

/// How a person answers a planned dose.
public enum DoseAnswer: Sendable, Hashable {
    case taken(at: Date?)
    case skipped(reason: String?)
    /// "Later": 10, 30 or 60 minutes, or nil for the household's reminder
    /// interval (the reminder's own "Later", so it comes back when the next
    /// reminder would have).
    case snoozed(minutes: Int?)

    /// An answer as the API and sync both send it: `status` taken, skipped
    /// or snoozed, with the parts that go with it (the rest is ignored).
    public init(status: String?, takenAt: Date?, reason: String?, snoozeMinutes: Int?) throws(HearthError) {
        switch status.flatMap(Dose.Status.init(rawValue:)) {
        case .taken?: self = .taken(at: takenAt)
        case .skipped?: self = .skipped(reason: reason)
        case .snoozed?: self = .snoozed(minutes: snoozeMinutes)
        default: throw .invalid(fields: ["status": "must be taken, skipped or snoozed"])
        }
    }
}

extension HearthStore {
    /// How far ahead a planned dose may be recorded as taken or skipped.
    public static let earliestAnswer: TimeInterval = 12 * 3600

    // MARK: Scheduled doses

    /// Records `person`'s answer to the planned dose `key`, decided by the
    /// permission policy on the medication this write reads (a dose of
    /// someone they may not see is unknown). Answering a dose that is
    /// already taken or skipped changes nothing (a double tap is recorded
    /// once); the stored dose is returned with whether this call recorded it.
    public func answerDose(key: String, _ answer: DoseAnswer, as person: PermissionPolicy.Actor, by origin: String) async throws -> (dose: Dose, recorded: Bool) {
        let answer = try Self.validated(answer)
        return try await write(by: origin) { transaction in
            let zone = try Self.householdTimeZone(transaction.db)
            guard let (planned, medication) = try Self.plannedDose(key: key, in: zone, transaction.db), medication.active else {
                throw HearthError.notFound(what: "That dose")
            }
            try PermissionPolicy.require(person, .create, .care(of: medication.personId), what: "That dose")
            guard planned.due.timeIntervalSince(transaction.time) <= Self.earliestAnswer else {
                throw HearthError.invalid(fields: ["key": "is a dose more than 12 hours ahead; record it closer to its time"])
            }
            return try Self.answer(planned, of: medication, answer, recordedBy: person.personId, in: &transaction)
        }
    }

    /// "Take all": every dose of `personId` planned in `slot` on `date` that is
    /// not yet taken or skipped is recorded taken by `person`, in one write,
    /// if the policy lets her record that senior's care.
    public func takeAll(personId: UUID, date: LocalDate, slot: DoseSlot, as person: PermissionPolicy.Actor, by origin: String) async throws -> [Dose] {
        try await write(by: origin) { transaction in
            try PermissionPolicy.require(person, .create, .care(of: personId), what: "That person")
            let zone = try Self.householdTimeZone(transaction.db)
            let plan = try Self.dayPlan(personId: personId, date: date, in: zone, transaction.db)
            var recorded: [Dose] = []
            for item in plan where item.planned.slot == slot && !(item.dose?.status.isAnswered ?? false) {
                guard item.planned.due.timeIntervalSince(transaction.time) <= Self.earliestAnswer else { continue }
                recorded.append(try Self.answer(item.planned, of: item.medication, .taken(at: nil), recordedBy: person.personId, in: &transaction).dose)
            }
            return recorded
        }
    }

    static func validated(_ answer: DoseAnswer) throws(HearthError) -> DoseAnswer {
        switch answer {
        case .snoozed(let minutes?) where !Dose.snoozeChoices.contains(minutes):
            throw .invalid(fields: ["snoozeMinutes": "must be 10, 30 or 60"])
        case .skipped(let reason?) where reason.count > Dose.maximumReasonLength:
            throw .invalid(fields: ["reason": "must be at most \(Dose.maximumReasonLength) characters"])
        default:
            return answer
        }
    }

    static func answer(
        _ planned: DueDose, of medication: Medication, _ answer: DoseAnswer, recordedBy person: UUID, in transaction: inout WriteTransaction
    ) throws -> (dose: Dose, recorded: Bool) {
        let existing = try dose(key: planned.key, transaction.db)
        if let existing, existing.status.isAnswered { return (existing, false) }
        if case .snoozed = answer, existing?.status == .missed {
            throw HearthError.conflict("This dose was already missed and the caregivers told; record it as taken or skipped")
        }
        let now = transaction.time
        var dose = existing ?? Dose(
            id: UUID.timeOrdered(at: now), key: planned.key, medicationId: medication.id, personId: medication.personId, scheduleId: planned.scheduleId,
            dueAt: planned.due, plannedDate: planned.date, plannedTime: planned.time, amount: planned.amount, status: .due,
            createdAt: now, updatedAt: now)
        dose.recordedBy = person
        dose.updatedAt = now
        switch answer {
        case .taken(let at):
            dose.status = .taken
            dose.takenAt = min(at ?? now, now)
            dose.snoozedUntil = nil
        case .skipped(let reason):
            dose.status = .skipped
            dose.reason = reason?.trimmingCharacters(in: .whitespacesAndNewlines).nilIfEmpty
            dose.snoozedUntil = nil
        case .snoozed(let chosen):
            let minutes = try chosen ?? reminderSettings(transaction.db).repeatMinutes
            dose.status = .snoozed
            dose.snoozedUntil = max(now, planned.due).addingTimeInterval(TimeInterval(minutes * 60))
        }
        // The stock as it stands before this dose is saved (`takeFromStock`'s `known`).
        let stocked = dose.status == .taken ? try Self.medication(id: medication.id, transaction.db) : nil
        try saveDose(dose, isNew: existing == nil, in: &transaction)
        if dose.status.isAnswered { try transaction.stamp(["status", "takenAt", "reason"], of: .dose, id: dose.key ?? dose.id.text) }
        if dose.status == .taken {
            try takeFromStock(dose.amount, medicationId: medication.id, known: stocked.map { ($0, nil) }, counting: dose, in: &transaction)
        }
        // The banner goes away on every device; a snoozed dose's comes back when the snooze ends.
        try resolveAlerts(doseId: dose.id, kinds: dose.status == .snoozed ? [.doseDue] : [.doseDue, .doseMissed], answer: dose,
                          in: &transaction)
        // Answered again after its answer was taken back: the alerts that answer had closed say this one.
        if dose.status.isAnswered { try followAnswer(of: dose, correcting: false, in: &transaction) }
        return (dose, true)
    }

    /// Corrects a recorded dose later: when it was taken, or taken ↔ skipped;
    /// by whom the policy lets put it right (`.doseRecord`), decided on the
    /// dose this write reads.
    public func correctDose(id: UUID, takenAt: Date?, status: Dose.Status?, reason: String?, as person: PermissionPolicy.Actor, by origin: String) async throws -> Dose {
        if let status, !status.isAnswered { throw HearthError.invalid(fields: ["status": "must be taken or skipped"]) }
        if let reason, reason.count > Dose.maximumReasonLength { throw HearthError.invalid(fields: ["reason": "must be at most 500 characters"]) }
        return try await write(by: origin) { transaction in
            let dose = try Self.doseToPutRight(id: id, by: person, transaction.db)
            return try Self.correct(dose, takenAt: takenAt, status: status, reason: reason, recordedBy: person.personId, in: &transaction)
        }
    }

    /// The dose `id` if `person` may put it right: unknown when they may not
    /// see it, forbidden when they see it but did not record it (a senior).
    static func doseToPutRight(id: UUID, by person: PermissionPolicy.Actor, _ db: Database) throws -> Dose {
        guard let dose = try dose(id: id, db) else { throw HearthError.notFound(what: "That dose") }
        try PermissionPolicy.require(person, .edit, .doseRecord(of: dose.personId, recordedBy: dose.recordedBy), what: "That dose")
        return dose
    }

    /// Changes what was recorded of a dose, moving the stock with it; nil
    /// leaves a part as it was.
    static func correct(
        _ original: Dose, takenAt: Date?, status: Dose.Status?, reason: String?, recordedBy person: UUID,
        in transaction: inout WriteTransaction
    ) throws -> Dose {
        var dose = original
        let before = dose
        if let status { dose.status = status }
        if let reason { dose.reason = reason.trimmingCharacters(in: .whitespacesAndNewlines).nilIfEmpty }
        if dose.status == .taken {
            let when = takenAt ?? dose.takenAt ?? transaction.time
            guard when <= transaction.time else { throw HearthError.invalid(fields: ["takenAt": "must not be in the future"]) }
            dose.takenAt = when
        } else if takenAt != nil {
            throw HearthError.invalid(fields: ["takenAt": "is only for a dose that was taken"])
        } else {
            dose.takenAt = nil
        }
        guard dose != before else { return dose }
        // Who first recorded it stays; who put it right is kept beside.
        dose.correctedBy = person
        dose.correctedAt = transaction.time
        dose.updatedAt = transaction.time
        try transaction.stampChanges(of: .dose, id: dose.key ?? dose.id.text, from: before.json, to: dose.json)
        // Read before the dose is saved: taken, it may be the newest taken dose, the one that carries the stock.
        let stocked = before.status == .taken || dose.status == .taken ? try medication(id: dose.medicationId, transaction.db) : nil
        try saveDose(dose, isNew: false, in: &transaction)
        if let stocked {
            if before.status != .taken, dose.status == .taken {
                try takeFromStock(dose.amount, medicationId: dose.medicationId, known: (stocked, nil), in: &transaction)
            } else if before.status == .taken, dose.status != .taken {
                try takeFromStock(-dose.amount, medicationId: dose.medicationId, known: (stocked, nil), in: &transaction)
            } else if let change = transaction.changes.last {
                // Taken, at another time: another dose may be the newest now, so the stock is written where no dose hides it.
                try writeStockBase(stocked, seq: change.seq, transaction.db)
            }
        }
        if dose.status.isAnswered {
            try resolveAlerts(doseId: dose.id, kinds: [.doseDue, .doseMissed], answer: dose, correcting: true, in: &transaction)
        }
        // The alerts an earlier answer closed say what the dose is now, not what it was.
        try followAnswer(of: dose, correcting: true, in: &transaction)
        return dose
    }

    /// Takes back a planned dose's answer ("not answered after all"): the
    /// stock taken for it returns, and the dose waits again. One whose time
    /// has come is due again, reminded and, once its grace is over, missed
    /// (the caregivers told); one still ahead is planned as if never answered
    /// (`waiting` is nil: no record is left of it).
    public func withdrawDoseAnswer(id: UUID, as person: PermissionPolicy.Actor, by origin: String) async throws -> (waiting: Dose?, key: String) {
        try await write(by: origin) { transaction in
            var dose = try Self.doseToPutRight(id: id, by: person, transaction.db)
            guard let key = dose.key else {
                throw HearthError.conflict("An as-needed dose is put right, not taken back: change it to skipped")
            }
            guard dose.status.isAnswered else { throw HearthError.conflict("This dose has no answer to take back") }
            let before = dose
            if before.status == .taken { try Self.takeFromStock(-dose.amount, medicationId: dose.medicationId, in: &transaction) }
            let now = transaction.time
            let alerted = try Bool.fetchOne(transaction.db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM alerts WHERE doseId = ?)"),
                                            arguments: [dose.id.text]) ?? false
            if let due = dose.dueAt, due > now, !alerted {
                try transaction.db.cachedExecute(sql: "DELETE FROM doses WHERE id = ?", arguments: [dose.id.text])
                try transaction.stampChanges(of: .dose, id: key, from: before.json, to: [:])
                try transaction.record(entity: .dose, entityId: dose.id.text, op: .delete, payload: [
                    "key": .string(key), "personId": .of(dose.personId), "withdrawnBy": .of(person.personId),
                ])
                return (nil, key)
            }
            dose.status = .due
            dose.takenAt = nil
            dose.reason = nil
            dose.snoozedUntil = nil
            dose.correctedBy = person.personId
            dose.correctedAt = now
            dose.updatedAt = now
            try transaction.stampChanges(of: .dose, id: key, from: before.json, to: dose.json)
            try Self.saveDose(dose, isNew: false, in: &transaction)
            // The alerts the answer closed no longer say it was taken or skipped.
            try Self.followAnswer(of: dose, correcting: true, in: &transaction)
            // The next reminder a repeat interval from now, not at once.
            try transaction.db.cachedExecute(sql: "UPDATE doses SET remindedAt = ? WHERE id = ?",
                                             arguments: [now.millisecondsSince1970, dose.id.text])
            return (dose, key)
        }
    }

    // MARK: As-needed doses

    /// Records an as-needed dose taken now (or at `takenAt`). One that would
    /// come sooner than its minimum interval or past its daily maximum is
    /// refused, unless `override` (a caregiver's call, kept on record; a
    /// senior may not override her own limit). Who may give it is decided
    /// on the medication this write reads.
    public func takeAsNeeded(
        medicationId: UUID, takenAt: Date?, override: Bool, reason: String?, as person: PermissionPolicy.Actor, by origin: String
    ) async throws -> Dose {
        if let reason, reason.count > Dose.maximumReasonLength { throw HearthError.invalid(fields: ["reason": "must be at most 500 characters"]) }
        return try await write(by: origin) { transaction in
            guard let medication = try Self.medication(id: medicationId, transaction.db), medication.active else {
                throw HearthError.notFound(what: "That medication")
            }
            try PermissionPolicy.require(person, .create, .care(of: medication.personId), what: "That medication")
            if override, person.role == .senior { throw HearthError.forbidden("Only a caregiver may give a dose past its limits") }
            let versions = try Self.scheduleVersions(medicationIds: [medicationId], since: transaction.time, transaction.db)
            guard let schedule = versions.first(where: { $0.activeUntil == nil && $0.schedule.isAsNeeded })?.schedule,
                  case .asNeeded(let minimumInterval, let dailyMaximum) = schedule.pattern
            else { throw HearthError.invalid(fields: ["medicationId": "has no as-needed schedule; record its planned doses instead"]) }
            let when = takenAt ?? transaction.time
            guard when <= transaction.time else { throw HearthError.invalid(fields: ["takenAt": "must not be in the future"]) }
            // Without a limit there is nothing to check against (and a
            // medicine taken freely may have many doses on record).
            var verdict = AsNeededRule.Verdict.allowed
            if minimumInterval != nil || dailyMaximum != nil {
                let zone = try Self.householdTimeZone(transaction.db)
                let previous = try Int64.fetchAll(transaction.db.cachedStatement(sql: """
                    SELECT takenAt FROM doses WHERE medicationId = ? AND key IS NULL AND status = 'taken' AND takenAt >= ?
                    """), arguments: [medicationId.text, when.addingTimeInterval(-8 * 86_400).millisecondsSince1970])
                    .map(Date.init(millisecondsSince1970:))
                verdict = AsNeededRule.check(minimumIntervalMinutes: minimumInterval, dailyMaximum: dailyMaximum,
                                             takenAt: previous, at: when, in: zone)
                if !override {
                    switch verdict {
                    case .tooSoon(let next):
                        throw HearthError.limitReached(.tooSoon(medication.name, nextAllowedAt: next, localTime: Self.clockTime(next, in: zone)))
                    case .dailyMaximumReached(let maximum):
                        throw HearthError.limitReached(.dailyMaximumReached(medication.name, maximum: maximum))
                    case .allowed:
                        break
                    }
                }
            }
            let dose = Dose(
                id: UUID.timeOrdered(at: transaction.time), key: nil, medicationId: medicationId, personId: medication.personId, scheduleId: schedule.id, dueAt: nil,
                plannedDate: nil, plannedTime: nil, amount: schedule.amount, status: .taken, takenAt: when,
                reason: reason?.trimmingCharacters(in: .whitespacesAndNewlines).nilIfEmpty, recordedBy: person.personId,
                limitOverridden: verdict != .allowed, createdAt: transaction.time, updatedAt: transaction.time)
            try Self.saveDose(dose, isNew: true, in: &transaction)
            let current = versions.filter { $0.activeUntil == nil }.map(\.schedule)
            try Self.takeFromStock(dose.amount, medicationId: medicationId, known: (medication, current), counting: dose, in: &transaction)
            return dose
        }
    }

    static func clockTime(_ date: Date, in zone: TimeZone) -> String {
        let local = Int(date.timeIntervalSince1970) + zone.secondsFromGMT(for: date)
        let minutes = ((local / 60) % 1440 + 1440) % 1440
        return String(format: "%02d:%02d", minutes / 60, minutes % 60)
    }

    // MARK: Stock

    /// Moves the stock by `amount` (a dose taken; negative, one taken back),
    /// within 0 and the maximum, and tells devices through the medication's
    /// change as before. Where the new stock is written, so a dose rewrites
    /// no page of its medication's (issue 41, v25):
    /// - `counting` a taken dose just saved that is now its medication's
    ///   newest taken one (by `takenAt`, then id: the end of
    ///   `doses_by_medication_taken`): on that dose's row, with this
    ///   change's seq, which is ahead of the medication's `stockSeq`;
    /// - anything else (a dose recorded late, taken back or corrected, which
    ///   may change which dose is the newest): on the medication's row, with
    ///   this change's seq, ahead of every dose's.
    /// `known`: the medication as it was before the counted dose was saved
    /// (a saved dose could hide what the one before it carries) and its
    /// current schedules when the caller has just read them.
    static func takeFromStock(
        _ amount: Double, medicationId: UUID, known: (medication: Medication, schedules: [DoseSchedule]?)? = nil,
        counting dose: Dose? = nil, in transaction: inout WriteTransaction
    ) throws {
        guard var medication = try known?.medication ?? medication(id: medicationId, transaction.db),
              let stock = medication.stock else { return }
        medication.stock = min(Medication.maximumStock, max(0, stock - amount))
        medication.updatedAt = transaction.time
        // Stock moves with every dose; it is not a revision of the medication.
        let change = try transaction.record(entity: .medication, entityId: medicationId.text, op: .update, payload: medication.json)
        if let dose, try isNewestTaken(dose, transaction.db) {
            try transaction.db.cachedExecute(sql: "UPDATE doses SET stockAfter = ?, stockSeq = ? WHERE id = ?",
                                             arguments: [medication.stock, change.seq, dose.id.text])
        } else {
            try writeStockBase(medication, seq: change.seq, transaction.db)
        }
        try checkStock(medicationId: medicationId, known: (medication, known?.schedules), in: &transaction)
    }

    /// Writes the medication's stock as it stands onto its own row, ahead
    /// of what any dose carries: before a dose that may be its newest taken
    /// one is taken back, deleted or moved in time (else the one before it
    /// would speak for the stock again). `seq`: a change of this write.
    static func writeStockBase(_ medication: Medication, seq: Int64, _ db: Database) throws {
        try db.cachedExecute(sql: "UPDATE medications SET stock = ?, stockSeq = ?, updatedAt = ? WHERE id = ?",
                             arguments: [medication.stock, seq, medication.updatedAt.millisecondsSince1970, medication.id.text])
    }

    /// Whether `dose`, taken and saved, is its medication's newest taken dose.
    static func isNewestTaken(_ dose: Dose, _ db: Database) throws -> Bool {
        guard dose.takenAt != nil else { return false }
        let newest = try String.fetchOne(db.cachedStatement(sql: """
            SELECT id FROM doses WHERE medicationId = ? AND takenAt IS NOT NULL ORDER BY takenAt DESC, id DESC LIMIT 1
            """), arguments: [dose.medicationId.text])
        return newest == dose.id.text
    }

    /// Raises a low-stock alert when the stock lasts fewer days than the
    /// medication's threshold, and resolves it once it no longer does.
    static func checkStock(
        medicationId: UUID, known: (medication: Medication, schedules: [DoseSchedule]?)? = nil,
        in transaction: inout WriteTransaction
    ) throws {
        guard let medication = try known?.medication ?? medication(id: medicationId, transaction.db) else { return }
        let schedules = try known?.schedules ?? scheduleVersions(medicationIds: [medicationId], since: transaction.time, transaction.db)
            .filter { $0.activeUntil == nil }.map(\.schedule)
        var isLow = false
        var daysLeft: Double?
        if medication.active, let threshold = medication.lowStockDays, let stock = medication.stock,
           let days = StockForecast.daysRemaining(stock: stock, schedules: schedules) {
            daysLeft = days
            isLow = days < Double(threshold)
        }
        let open = try alerts(sql: "SELECT * FROM alerts WHERE medicationId = ? AND kind = 'low-stock' AND resolvedAt IS NULL",
                              arguments: [medicationId.text], transaction.db)
        if isLow, open.isEmpty {
            let alert = CareAlert(
                kind: .lowStock, audience: .caregivers, personId: medication.personId, medicationId: medicationId,
                raisedBy: "hub", raisedAt: transaction.time,
                details: ["medicationName": .string(medication.name), "stock": .of(medication.stock), "unit": .string(medication.unit),
                          "daysRemaining": .of(daysLeft.map { ($0 * 10).rounded() / 10 })])
            try insertAlert(alert, onceKey: nil, in: &transaction)
        } else if !isLow {
            for var alert in open {
                alert.resolvedAt = transaction.time
                try saveAlert(alert, in: &transaction)
            }
        }
    }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
