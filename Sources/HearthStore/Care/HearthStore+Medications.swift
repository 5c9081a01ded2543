import Foundation
import GRDB
import HearthCore

/// A medication as it read at one revision, and who made it so.
public struct MedicationRevision: Sendable, Hashable {
    public var revision: Int
    public var snapshot: JSONValue
    public var actor: String
    public var time: Date
}

extension HearthStore {
    // MARK: Writing

    /// Adds a medication for a senior with its schedules, in one write;
    /// `draft`'s id and times are replaced. Who may: her caregivers, and
    /// she herself when she manages her own (the policy's `.medications`).
    public func addMedication(
        _ draft: Medication, schedules drafts: [DoseSchedule] = [], as adder: PermissionPolicy.Actor, by origin: String
    ) async throws -> Medication {
        let validated = try draft.validated()
        let schedules = try drafts.map { schedule throws(HearthError) in try schedule.validated() }
        return try await write(by: origin) { transaction in
            var medication = validated
            try PermissionPolicy.require(adder, .create, .medications(of: medication.personId), what: "That person")
            guard let person = try Self.person(id: medication.personId, transaction.db), person.archivedAt == nil else {
                throw HearthError.invalid(fields: ["personId": "is not a person in the household"])
            }
            guard person.role == .senior else {
                throw HearthError.invalid(fields: ["personId": "must be a senior (the person who takes it)"])
            }
            medication.id = UUID.random()
            medication.revision = 1
            medication.active = true
            medication.createdAt = transaction.time
            medication.updatedAt = transaction.time
            try Self.saveMedication(medication, isNew: true, in: &transaction)
            for var schedule in schedules {
                schedule.medicationId = medication.id
                try Self.insertSchedule(schedule, personId: medication.personId, in: &transaction)
            }
            try Self.checkStock(medicationId: medication.id, in: &transaction)
            return medication
        }
    }

    /// Changes a medication; the revision before stays on record.
    /// `action` is `.edit`, or `.delete` for stopping it; decided on the
    /// medication as this transaction reads it.
    public func updateMedication(
        id: UUID, as editor: PermissionPolicy.Actor, _ action: PermissionPolicy.Action, by origin: String,
        _ edit: @escaping @Sendable (inout Medication) -> Void
    ) async throws -> Medication {
        try await write(by: origin) { transaction in
            let before = try Self.medication(id: id, for: action, as: editor, transaction.db)
            var after = before
            edit(&after)
            after = try after.validated()
            after.id = before.id
            after.personId = before.personId
            after.createdAt = before.createdAt
            after.revision = before.revision
            guard after != before else { return before }
            after.revision += 1
            after.updatedAt = transaction.time
            try transaction.stampChanges(of: .medication, id: id.text, from: before.json, to: after.json)
            try Self.saveRevision(after, in: &transaction)
            return after
        }
    }

    /// Saves a changed medication (its revision already raised) with what
    /// follows from it: the low-stock check, and no more reminders once stopped.
    static func saveRevision(_ medication: Medication, in transaction: inout WriteTransaction) throws {
        try saveMedication(medication, isNew: false, in: &transaction)
        try checkStock(medicationId: medication.id, in: &transaction)
        if !medication.active {
            // Stopped: nobody is to be reminded of it any more.
            for var alert in try alerts(sql: "SELECT * FROM alerts WHERE medicationId = ? AND kind = 'dose-due' AND resolvedAt IS NULL",
                                        arguments: [medication.id.text], transaction.db) {
                alert.resolvedAt = transaction.time
                try saveAlert(alert, in: &transaction)
            }
        }
    }

    /// "Refilled": adds `packages` packages to the stock and clears a low-stock alert it answers.
    public func refill(medicationId id: UUID, packages: Int, as editor: PermissionPolicy.Actor, by origin: String) async throws -> Medication {
        guard (1...50).contains(packages) else { throw HearthError.invalid(fields: ["packages": "must be 1 to 50"]) }
        return try await write(by: origin) { transaction in
            var medication = try Self.medication(id: id, for: .edit, as: editor, transaction.db)
            guard let packageSize = medication.packageSize else {
                throw HearthError.invalid(fields: ["packageSize": "must be set before a refill can be counted"])
            }
            medication.stock = min(Medication.maximumStock, (medication.stock ?? 0) + packageSize * Double(packages))
            medication.revision += 1
            medication.updatedAt = transaction.time
            try Self.saveMedication(medication, isNew: false, in: &transaction)
            try Self.checkStock(medicationId: id, in: &transaction)
            return medication
        }
    }

    /// Writes the medication's row, its stock as the base every later
    /// count starts from (`stockSeq`: this change's seq, ahead of every
    /// dose's count so far).
    static func saveMedication(_ medication: Medication, isNew: Bool, in transaction: inout WriteTransaction) throws {
        let m = medication
        let change = try transaction.record(entity: .medication, entityId: m.id.text, op: isNew ? .create : .update, payload: m.json)
        let arguments: StatementArguments = [
            m.personId.text, m.name, m.strength, m.unit, m.form, m.instructions, m.appearance, m.stock, change.seq,
            m.packageSize, m.lowStockDays, m.active, m.revision, m.createdAt.millisecondsSince1970, m.updatedAt.millisecondsSince1970,
            m.id.text,
        ]
        if isNew {
            try transaction.db.cachedExecute(sql: """
                INSERT INTO medications (personId, name, strength, unit, form, instructions, appearance, stock, stockSeq,
                    packageSize, lowStockDays, active, revision, createdAt, updatedAt, id)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: arguments)
        } else {
            try transaction.db.cachedExecute(sql: """
                UPDATE medications SET personId = ?, name = ?, strength = ?, unit = ?, form = ?, instructions = ?, appearance = ?,
                    stock = ?, stockSeq = ?, packageSize = ?, lowStockDays = ?, active = ?, revision = ?, createdAt = ?, updatedAt = ?
                WHERE id = ?
                """, arguments: arguments)
        }
        try transaction.db.cachedExecute(sql: "INSERT INTO medication_revisions (medicationId, revision, snapshot, actor, time) VALUES (?, ?, ?, ?, ?)",
            arguments: [m.id.text, m.revision, try m.json.jsonText(), transaction.origin, transaction.time.millisecondsSince1970])
    }

    // MARK: Schedules

    /// Adds a schedule to a medication, in force from now.
    public func addSchedule(_ draft: DoseSchedule, as editor: PermissionPolicy.Actor, by origin: String) async throws -> DoseSchedule {
        let validated = try draft.validated()
        return try await write(by: origin) { transaction in
            var schedule = validated
            let medication = try Self.medication(id: schedule.medicationId, for: .create, as: editor, transaction.db)
            guard medication.active else { throw HearthError.notFound(what: "That medication") }
            schedule = try Self.insertSchedule(schedule, personId: medication.personId, in: &transaction)
            try Self.checkStock(medicationId: medication.id, in: &transaction)
            return schedule
        }
    }

    @discardableResult
    static func insertSchedule(_ draft: DoseSchedule, personId: UUID, in transaction: inout WriteTransaction) throws -> DoseSchedule {
        var schedule = draft
        schedule.id = UUID.random()
        try transaction.db.cachedExecute(sql: "INSERT INTO schedules (id, medicationId, createdAt) VALUES (?, ?, ?)",
                                   arguments: [schedule.id.text, schedule.medicationId.text, transaction.time.millisecondsSince1970])
        try insertVersion(schedule, version: 1, in: &transaction)
        try transaction.record(entity: .schedule, entityId: schedule.id.text, op: .create,
                               payload: payload(of: schedule, personId: personId))
        return schedule
    }

    /// Replaces a schedule's plan from now on; doses already due keep the old one.
    /// `replacement` makes the new plan from the current one (a plan
    /// without a start date keeps the current one's, and its rhythm).
    public func replaceSchedule(
        id: UUID, ofMedication medicationId: UUID, as editor: PermissionPolicy.Actor, by origin: String,
        _ replacement: @escaping @Sendable (DoseSchedule) throws -> DoseSchedule
    ) async throws -> DoseSchedule {
        try await write(by: origin) { transaction in
            let (current, medication) = try Self.currentSchedule(id: id, ofMedication: medicationId, as: editor, transaction.db)
            var schedule = try replacement(current.schedule).validated()
            schedule.id = id
            schedule.medicationId = current.schedule.medicationId
            guard schedule != current.schedule else { return schedule }
            let version = try Int.fetchOne(transaction.db.cachedStatement(sql: "SELECT MAX(version) FROM schedule_versions WHERE scheduleId = ?"),
                                           arguments: [id.text]) ?? 0
            try transaction.db.cachedExecute(sql: "UPDATE schedule_versions SET activeUntil = ? WHERE scheduleId = ? AND activeUntil IS NULL",
                arguments: [transaction.time.millisecondsSince1970, id.text])
            try Self.insertVersion(schedule, version: version + 1, in: &transaction)
            try transaction.record(entity: .schedule, entityId: id.text, op: .update,
                                   payload: Self.payload(of: schedule, personId: medication.personId))
            try Self.checkStock(medicationId: medication.id, in: &transaction)
            return schedule
        }
    }

    /// Ends a schedule now. Its past doses stay on record.
    public func removeSchedule(id: UUID, ofMedication medicationId: UUID, as editor: PermissionPolicy.Actor, by origin: String) async throws {
        try await write(by: origin) { transaction in
            let (_, medication) = try Self.currentSchedule(id: id, ofMedication: medicationId, as: editor, transaction.db)
            let now = transaction.time.millisecondsSince1970
            try transaction.db.cachedExecute(sql: "UPDATE schedule_versions SET activeUntil = ? WHERE scheduleId = ? AND activeUntil IS NULL",
                                       arguments: [now, id.text])
            try transaction.db.cachedExecute(sql: "UPDATE schedules SET removedAt = ? WHERE id = ?", arguments: [now, id.text])
            try transaction.record(entity: .schedule, entityId: id.text, op: .delete,
                                   payload: ["medicationId": .string(medication.id.text), "personId": .string(medication.personId.text)])
            try Self.checkStock(medicationId: medication.id, in: &transaction)
        }
    }

    static func insertVersion(_ schedule: DoseSchedule, version: Int, in transaction: inout WriteTransaction) throws {
        let pattern = try SchedulePatterns.text(of: schedule.pattern)
        try transaction.db.cachedExecute(sql: """
            INSERT INTO schedule_versions (scheduleId, version, pattern, amount, startDate, endDate, activeFrom)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """, arguments: [schedule.id.text, version, pattern, schedule.amount, schedule.startDate.description,
                             schedule.endDate?.description, transaction.time.millisecondsSince1970])
    }

    static func payload(of schedule: DoseSchedule, personId: UUID) -> JSONValue {
        guard case .object(var fields) = schedule.json else { return schedule.json }
        fields["personId"] = .string(personId.text)
        return .object(fields)
    }

    // MARK: Reading

    public func medication(id: UUID) async throws -> Medication? {
        try await pool.read { db in try Self.medication(id: id, db) }
    }

    /// The medication, if `reader` may see it (else `notFound`).
    public func medication(id: UUID, visibleTo reader: PermissionPolicy.Actor) async throws -> Medication {
        try await pool.read { db in try Self.medication(id: id, for: .view, as: reader, db) }
    }

    /// The medications of these seniors, active ones first then by name.
    public func medications(of people: Set<UUID>, includingInactive: Bool = false) async throws -> [Medication] {
        try await pool.read { db in try Self.medications(of: people, includingInactive: includingInactive, db) }
    }

    static func medications(of people: Set<UUID>, includingInactive: Bool, _ db: Database) throws -> [Medication] {
        guard !people.isEmpty else { return [] }
        let marks = Array(repeating: "?", count: people.count).joined(separator: ", ")
        return try Row.fetchAll(db.cachedStatement(sql: """
            SELECT \(medicationColumns) FROM \(medicationSource) WHERE m.personId IN (\(marks)) \(includingInactive ? "" : "AND m.active = 1")
            ORDER BY m.active DESC, m.name COLLATE NOCASE, m.id
            """), arguments: StatementArguments(people.map(\.text))).map(medication(from:))
    }

    public func medicationRevisions(id: UUID) async throws -> [MedicationRevision] {
        try await pool.read { db in
            try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM medication_revisions WHERE medicationId = ? ORDER BY revision"), arguments: [id.text])
                .map { row in
                    MedicationRevision(revision: row["revision"], snapshot: try JSONValue(jsonText: row["snapshot"]),
                                       actor: row["actor"], time: Date(millisecondsSince1970: row["time"]))
                }
        }
    }

    /// The schedules of a medication as they stand now (removed ones left out).
    public func schedules(medicationId: UUID) async throws -> [DoseSchedule] {
        try await pool.read { db in
            try Self.versions(sql: """
                SELECT \(Self.versionColumns) FROM schedule_versions v JOIN schedules s ON s.id = v.scheduleId
                WHERE s.medicationId = ? AND v.activeUntil IS NULL ORDER BY s.createdAt, s.id
                """, arguments: [medicationId.text], db).map(\.schedule)
        }
    }

    /// The current schedules of several medications, in one read (a list
    /// page shows each medication with its schedules).
    public func schedules(medicationIds: [UUID]) async throws -> [UUID: [DoseSchedule]] {
        guard !medicationIds.isEmpty else { return [:] }
        return try await pool.read { db in
            let marks = Array(repeating: "?", count: medicationIds.count).joined(separator: ", ")
            return Dictionary(grouping: try Self.versions(sql: """
                SELECT \(Self.versionColumns) FROM schedule_versions v JOIN schedules s ON s.id = v.scheduleId
                WHERE s.medicationId IN (\(marks)) AND v.activeUntil IS NULL ORDER BY s.createdAt, s.id
                """, arguments: StatementArguments(medicationIds.map(\.text)), db).map(\.schedule), by: \.medicationId)
        }
    }

    /// Every version of every schedule of these medications that is in
    /// force at or after `since`: what the reminder service and Today plan from.
    static func scheduleVersions(medicationIds: [UUID], since: Date, _ db: Database) throws -> [ScheduleVersion] {
        guard !medicationIds.isEmpty else { return [] }
        let marks = Array(repeating: "?", count: medicationIds.count).joined(separator: ", ")
        // Built as existentials: GRDB's generic initializer is not specialized
        // across modules, and runs for every dose recorded.
        let values: [(any DatabaseValueConvertible)?] = medicationIds.map(\.text) + [since.millisecondsSince1970]
        let arguments = StatementArguments(values)
        return try versions(sql: """
            SELECT \(Self.versionColumns) FROM schedule_versions v JOIN schedules s ON s.id = v.scheduleId
            WHERE s.medicationId IN (\(marks)) AND (v.activeUntil IS NULL OR v.activeUntil > ?)
            """, arguments: arguments, db)
    }

    static func currentVersion(scheduleId: UUID, _ db: Database) throws -> ScheduleVersion? {
        try versions(sql: """
            SELECT \(Self.versionColumns) FROM schedule_versions v JOIN schedules s ON s.id = v.scheduleId
            WHERE v.scheduleId = ? AND v.activeUntil IS NULL
            """,
                     arguments: [scheduleId.text], db).first
    }

    /// The columns `versions(sql:)` reads, in the order it reads them: by
    /// index, as GRDB's lookup by name lowercases the name for every field.
    static let versionColumns = "v.scheduleId, v.pattern, v.amount, v.startDate, v.endDate, v.activeFrom, v.activeUntil, s.medicationId"

    static func versions(sql: String, arguments: StatementArguments, _ db: Database) throws -> [ScheduleVersion] {
        // Every query selects `versionColumns`; each row is decoded from the
        // cursor in place, where fetchAll would copy it first.
        return try Array(Row.fetchCursor(db.cachedStatement(sql: sql), arguments: arguments).map { row in
            guard let id = UUID(text: row[0]), let medicationId = UUID(text: row[7]) else {
                throw HearthError.conflict("A stored schedule is damaged")
            }
            let pattern = try SchedulePatterns.shared.pattern(stored: row[1])
            let schedule = DoseSchedule(
                id: id, medicationId: medicationId, pattern: pattern, amount: row[2],
                startDate: try LocalDate(row[3] as String), endDate: try (row[4] as String?).map { try LocalDate($0) })
            return ScheduleVersion(schedule: schedule, activeFrom: Date(millisecondsSince1970: row[5]),
                                   activeUntil: (row[6] as Int64?).map(Date.init(millisecondsSince1970:)))
        })
    }

    static func medication(id: UUID, _ db: Database) throws -> Medication? {
        // Decoded from the cursor's row in place (fetchOne would copy it
        // first), while the cursor lives: its row reads the statement's.
        let cursor = try Row.fetchCursor(db.cachedStatement(sql: "SELECT \(medicationColumns) FROM \(medicationSource) WHERE m.id = ?"),
                                         arguments: [id.text])
        return try withExtendedLifetime(cursor) { try cursor.next().map(medication(from:)) }
    }

    /// The columns `medication(from:)` reads, in its order: by index, not
    /// by name (see `versionColumns`), from `medicationSource`. The stock
    /// (and when it last moved) is the newest taken dose's, if it counted
    /// the stock after the medication's row last set it (v25,
    /// `takeFromStock`), else the row's.
    static let medicationColumns = """
        m.id, m.personId, m.name, m.strength, m.unit, m.form, m.instructions, m.appearance, \
        CASE WHEN d.stockSeq > m.stockSeq THEN d.stockAfter ELSE m.stock END, m.packageSize, m.lowStockDays, m.active, \
        m.revision, m.createdAt, CASE WHEN d.stockSeq > m.stockSeq THEN max(m.updatedAt, d.updatedAt) ELSE m.updatedAt END
        """

    /// `medications m`, each with its newest taken dose `d` (one step down
    /// `doses_by_medication_taken`, whose entries end with the dose's id).
    static let medicationSource = """
        medications m LEFT JOIN doses d ON d.id = (
            SELECT id FROM doses WHERE medicationId = m.id AND takenAt IS NOT NULL ORDER BY takenAt DESC, id DESC LIMIT 1)
        """

    /// A medication from a row selecting `medicationColumns`.
    static func medication(from row: Row) throws -> Medication {
        guard let id = UUID(text: row[0]), let personId = UUID(text: row[1]) else {
            throw HearthError.conflict("A stored medication is damaged")
        }
        return Medication(
            id: id, personId: personId, name: row[2], strength: row[3], unit: row[4], form: row[5],
            instructions: row[6], appearance: row[7], stock: row[8], packageSize: row[9],
            lowStockDays: row[10], active: row[11], revision: row[12],
            createdAt: Date(millisecondsSince1970: row[13]), updatedAt: Date(millisecondsSince1970: row[14]))
    }

    /// The medication, if `editor` may do `action` to it as it is stored now
    /// (`notFound` for one they may not see, `forbidden` for the rest).
    static func medication(id: UUID, for action: PermissionPolicy.Action, as editor: PermissionPolicy.Actor,
                           _ db: Database) throws -> Medication {
        guard let medication = try medication(id: id, db) else { throw HearthError.notFound(what: "That medication") }
        try PermissionPolicy.require(editor, action, .medications(of: medication.personId), what: "That medication")
        return medication
    }

    /// A current schedule of the medication, if `editor` may change its plans.
    static func currentSchedule(id: UUID, ofMedication medicationId: UUID, as editor: PermissionPolicy.Actor,
                                _ db: Database) throws -> (ScheduleVersion, Medication) {
        let medication = try medication(id: medicationId, for: .edit, as: editor, db)
        guard let current = try currentVersion(scheduleId: id, db), current.schedule.medicationId == medicationId else {
            throw HearthError.notFound(what: "That schedule")
        }
        return (current, medication)
    }
}
