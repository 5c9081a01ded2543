import Foundation
import GRDB
import HearthCore

/// Reading doses: a person's day as planned, the next planned dose, the
/// history, one dose by id or key, and the rows behind them.
extension HearthStore {
    /// The doses planned for `personId` on `date` with what was recorded of
    /// them, in time order, followed by as-needed doses taken that day.
    public func dayPlan(personId: UUID, date: LocalDate) async throws -> (planned: [PlannedDose], asNeeded: [Dose]) {
        try await pool.read { db in
            let zone = try Self.householdTimeZone(db)
            let planned = try Self.dayPlan(personId: personId, date: date, in: zone, db)
            let start = WallClock.instant(date, try LocalTime(hour: 0, minute: 0), in: zone)
            let end = WallClock.instant(date.adding(days: 1), try LocalTime(hour: 0, minute: 0), in: zone)
            let asNeeded = try Self.doses(sql: """
                SELECT * FROM doses WHERE medicationId IN (SELECT id FROM medications WHERE personId = ?)
                    AND key IS NULL AND takenAt >= ? AND takenAt < ? ORDER BY takenAt
                """, arguments: [personId.text, start.millisecondsSince1970, end.millisecondsSince1970], db)
            return (planned, asNeeded)
        }
    }

    static func dayPlan(personId: UUID, date: LocalDate, in zone: TimeZone, _ db: Database) throws -> [PlannedDose] {
        let medications = try medications(of: [personId], includingInactive: true, db)
        let byId = Dictionary(uniqueKeysWithValues: medications.map { ($0.id, $0) })
        let start = WallClock.instant(date, try LocalTime(hour: 0, minute: 0), in: zone)
        let end = WallClock.instant(date.adding(days: 1), try LocalTime(hour: 0, minute: 0), in: zone)
        let versions = try scheduleVersions(medicationIds: medications.map(\.id), since: start, db)
        // Each schedule's first version also plans what fell due on its
        // start day before it was entered.
        let early = Set(try firstVersions(of: versions, db).flatMap { $0.dosesBeforeEntry(from: start, to: end, in: zone) })
        let recorded = try Dictionary(
            doses(sql: "SELECT * FROM doses WHERE personId = ? AND dueAt >= ? AND dueAt < ?",
                  arguments: [personId.text, start.millisecondsSince1970, end.millisecondsSince1970], db)
                .compactMap { dose in dose.key.map { ($0, dose) } },
            uniquingKeysWith: { first, _ in first })
        return (versions.flatMap { $0.doses(from: start, to: end, in: zone) } + early)
            .compactMap { planned -> PlannedDose? in
                guard let medication = byId[planned.medicationId] else { return nil }
                let dose = recorded[planned.key]
                // A deactivated medication's doses show only where something was recorded.
                guard medication.active || dose != nil else { return nil }
                return PlannedDose(planned: planned, medication: medication, dose: dose, beforeEntry: early.contains(planned))
            }
            .sorted { ($0.planned.due, $0.medication.name, $0.planned.key) < ($1.planned.due, $1.medication.name, $1.planned.key) }
    }

    /// How far ahead the next dose is looked for: a month, beyond any weekly
    /// or every-few-days plan.
    static let nextDoseHorizon: TimeInterval = 31 * 86_400

    /// The first dose planned for `personId` at or after `moment` by an
    /// active medication, with that medication; nil when none is planned in
    /// the month ahead. Today names it when nothing is left of the day.
    public func nextPlannedDose(personId: UUID, from moment: Date) async throws -> (dose: DueDose, medication: Medication)? {
        try await pool.read { db in
            let zone = try Self.householdTimeZone(db)
            let medications = try Self.medications(of: [personId], includingInactive: false, db)
            let byId = Dictionary(uniqueKeysWithValues: medications.map { ($0.id, $0) })
            return try Self.scheduleVersions(medicationIds: medications.map(\.id), since: moment, db)
                .flatMap { $0.doses(from: moment, to: moment.addingTimeInterval(Self.nextDoseHorizon), in: zone) }
                .compactMap { planned in byId[planned.medicationId].map { (dose: planned, medication: $0) } }
                .min { ($0.dose.due, $0.medication.name) < ($1.dose.due, $1.medication.name) }
        }
    }

    /// Of `versions`, those that are their schedule's first (its earliest
    /// stored version), which alone plan doses before the schedule was entered.
    static func firstVersions(of versions: [ScheduleVersion], _ db: Database) throws -> [ScheduleVersion] {
        var first: [ScheduleVersion] = []
        for (scheduleId, listed) in Dictionary(grouping: versions, by: \.schedule.id) {
            let earliest = try Int64.fetchOne(db.cachedStatement(sql: "SELECT MIN(activeFrom) FROM schedule_versions WHERE scheduleId = ?"),
                                              arguments: [scheduleId.text])
            first += listed.filter { $0.activeFrom.millisecondsSince1970 == earliest }
        }
        return first
    }

    /// Recorded doses of these seniors between two instants (by due time, or
    /// taken time for as-needed doses), oldest first: the History page.
    public func doses(of people: Set<UUID>, from start: Date, to end: Date) async throws -> [Dose] {
        guard !people.isEmpty else { return [] }
        return try await pool.read { db in
            let marks = Array(repeating: "?", count: people.count).joined(separator: ", ")
            let from = start.millisecondsSince1970, to = end.millisecondsSince1970
            let ids = StatementArguments(people.map(\.text)), window: StatementArguments = [from, to]
            // Planned doses by their due time, as-needed ones by when they
            // were taken (each through the index that holds only those).
            return try Self.doses(sql: """
                SELECT * FROM (
                    SELECT * FROM doses WHERE personId IN (\(marks)) AND dueAt >= ? AND dueAt < ?
                    UNION ALL
                    SELECT * FROM doses WHERE medicationId IN (SELECT id FROM medications WHERE personId IN (\(marks)))
                        AND dueAt IS NULL AND takenAt >= ? AND takenAt < ?
                ) ORDER BY COALESCE(dueAt, takenAt), id
                """, arguments: ids + window + ids + window, db)
        }
    }

    public func dose(id: UUID) async throws -> Dose? {
        try await pool.read { db in try Self.dose(id: id, db) }
    }

    /// The planned dose named by `key` and its medication, if a schedule plans it.
    public func plannedDose(key: String) async throws -> (dose: DueDose, medication: Medication)? {
        try await pool.read { db in try Self.plannedDose(key: key, in: try Self.householdTimeZone(db), db) }
    }

    static func plannedDose(key: String, in zone: TimeZone, _ db: Database) throws -> (DueDose, Medication)? {
        let parts = key.split(separator: "/")
        guard parts.count == 2, let scheduleId = UUID(text: String(parts[0])) else { return nil }
        let when = parts[1].split(separator: "T")
        guard when.count == 2, let date = try? LocalDate(String(when[0])), let time = try? LocalTime(String(when[1])) else { return nil }
        let versions = try versions(sql: """
            SELECT \(Self.versionColumns) FROM schedule_versions v JOIN schedules s ON s.id = v.scheduleId WHERE v.scheduleId = ?
            """, arguments: [scheduleId.text], db)
        let due = WallClock.instant(date, time, in: zone)
        let first = versions.min { $0.activeFrom < $1.activeFrom }
        for version in versions {
            // A dose planned before the schedule was entered is answered too.
            let doses = version.doses(from: due, to: due.addingTimeInterval(1), in: zone)
                + (version == first ? version.dosesBeforeEntry(from: due, to: due.addingTimeInterval(1), in: zone) : [])
            if let planned = doses.first(where: { $0.key == key }), let medication = try medication(id: planned.medicationId, db) {
                return (planned, medication)
            }
        }
        return nil
    }

    static func householdTimeZone(_ db: Database) throws -> TimeZone {
        guard let household = try household(db), let zone = TimeZone(identifier: household.timeZone) else {
            throw HearthError.notFound(what: "The household")
        }
        return zone
    }

    static func saveDose(_ dose: Dose, isNew: Bool, in transaction: inout WriteTransaction) throws {
        let d = dose
        let values: StatementArguments = [
            d.key, d.medicationId.text, d.personId.text, d.scheduleId?.text, d.dueAt?.millisecondsSince1970,
            d.plannedDate?.description, d.plannedTime?.description, d.amount, d.status.rawValue, d.takenAt?.millisecondsSince1970,
            d.reason, d.snoozedUntil?.millisecondsSince1970, d.recordedBy?.text, d.limitOverridden,
            d.missedAt?.millisecondsSince1970, d.correctedBy?.text, d.correctedAt?.millisecondsSince1970,
            d.createdAt.millisecondsSince1970, d.updatedAt.millisecondsSince1970, d.id.text,
        ]
        if isNew {
            try transaction.db.cachedExecute(sql: """
                INSERT INTO doses (key, medicationId, personId, scheduleId, dueAt, plannedDate, plannedTime, amount, status,
                    takenAt, reason, snoozedUntil, recordedBy, limitOverridden, missedAt, correctedBy, correctedAt, createdAt,
                    updatedAt, id)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: values)
        } else {
            try transaction.db.cachedExecute(sql: """
                UPDATE doses SET key = ?, medicationId = ?, personId = ?, scheduleId = ?, dueAt = ?, plannedDate = ?, plannedTime = ?,
                    amount = ?, status = ?, takenAt = ?, reason = ?, snoozedUntil = ?, recordedBy = ?, limitOverridden = ?,
                    missedAt = ?, correctedBy = ?, correctedAt = ?, createdAt = ?, updatedAt = ?
                WHERE id = ?
                """, arguments: values)
        }
        try transaction.record(entity: .dose, entityId: d.id.text, op: isNew ? .create : .update, payload: d.json)
    }

    static func dose(key: String, _ db: Database) throws -> Dose? {
        try doses(sql: "SELECT * FROM doses WHERE key = ?", arguments: [key], db).first
    }

    static func dose(id: UUID, _ db: Database) throws -> Dose? {
        try doses(sql: "SELECT * FROM doses WHERE id = ?", arguments: [id.text], db).first
    }

    static func doses(sql: String, arguments: StatementArguments, _ db: Database) throws -> [Dose] {
        try Row.fetchAll(db.cachedStatement(sql: sql), arguments: arguments).map(dose(from:))
    }

    static func dose(from row: Row) throws -> Dose {
        guard let id = UUID(text: row["id"]), let medicationId = UUID(text: row["medicationId"]),
              let personId = UUID(text: row["personId"]), let status = Dose.Status(rawValue: row["status"])
        else { throw HearthError.conflict("A stored dose is damaged") }
        func date(_ column: String) -> Date? { (row[column] as Int64?).map(Date.init(millisecondsSince1970:)) }
        return Dose(
            id: id, key: row["key"], medicationId: medicationId, personId: personId,
            scheduleId: (row["scheduleId"] as String?).flatMap(UUID.init(text:)), dueAt: date("dueAt"),
            plannedDate: try (row["plannedDate"] as String?).map { try LocalDate($0) },
            plannedTime: try (row["plannedTime"] as String?).map { try LocalTime($0) },
            amount: row["amount"], status: status, takenAt: date("takenAt"), reason: row["reason"], snoozedUntil: date("snoozedUntil"),
            recordedBy: (row["recordedBy"] as String?).flatMap(UUID.init(text:)), limitOverridden: row["limitOverridden"],
            missedAt: date("missedAt"), correctedBy: (row["correctedBy"] as String?).flatMap(UUID.init(text:)),
            correctedAt: date("correctedAt"), createdAt: Date(millisecondsSince1970: row["createdAt"]),
            updatedAt: Date(millisecondsSince1970: row["updatedAt"]))
    }
}
