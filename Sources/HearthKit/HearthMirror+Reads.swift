import Foundation
import GRDB
import HearthCore

extension HearthMirror {
    // MARK: Reading once

    /// Notes not in Trash: pinned first, then the most recently changed.
    public func notes() async throws -> [MirroredNote] {
        try await writer.read { db in try Self.notes(db) }
    }

    public func note(id: UUID) async throws -> MirroredNote? {
        try await writer.read { db in try Self.note(id: id.text, db) }
    }

    /// Active medications first, then by name.
    public func medications() async throws -> [MirroredMedication] {
        try await writer.read { db in try Self.medications(db) }
    }

    /// The planned doses of `date` (today on the household's calendar when
    /// nil), in time order, each with its answer as this device knows it.
    public func today(on date: LocalDate? = nil) async throws -> [TodayDose] {
        try await writer.read { db in try Self.today(on: date, db) }
    }

    // MARK: Watching

    /// The notes now, and again after every change to them (a local edit or a sync landing).
    public func observeNotes() -> AsyncValueObservation<[MirroredNote]> {
        ValueObservation.tracking { db in try Self.notes(db) }.removeDuplicates().values(in: writer)
    }

    /// One note now and after every change; nil once it is gone from this device.
    public func observeNote(id: UUID) -> AsyncValueObservation<MirroredNote?> {
        let id = id.text
        return ValueObservation.tracking { db in try Self.note(id: id, db) }.removeDuplicates().values(in: writer)
    }

    public func observeMedications() -> AsyncValueObservation<[MirroredMedication]> {
        ValueObservation.tracking { db in try Self.medications(db) }.removeDuplicates().values(in: writer)
    }

    // MARK: Queries

    static func entities(_ entity: ChangeEntity, _ db: Database) throws -> [(id: String, fields: [String: JSONValue])] {
        try Row.fetchAll(db, sql: "SELECT id, fields FROM entities WHERE entity = ?", arguments: [entity.rawValue]).compactMap { row in
            guard case .object(let fields) = try JSONValue(jsonText: row["fields"]) else { return nil }
            return (row["id"], fields)
        }
    }

    static func notes(_ db: Database) throws -> [MirroredNote] {
        let texts = Dictionary(try Row.fetchAll(db, sql: "SELECT noteId, text FROM note_texts").map { ($0["noteId"] as String, $0["text"] as String) },
                               uniquingKeysWith: { first, _ in first })
        return try entities(.note, db)
            .compactMap { MirroredNote(id: $0.id, fields: $0.fields, text: texts[$0.id]) }
            .filter { $0.deletedAt == nil }
            .sorted { a, b in
                if a.pinned != b.pinned { return a.pinned }
                return (a.updatedAt ?? .distantPast, a.id.uuidString) > (b.updatedAt ?? .distantPast, b.id.uuidString)
            }
    }

    static func note(id: String, _ db: Database) throws -> MirroredNote? {
        guard let fields = try fields(.note, id, db) else { return nil }
        let text = try String.fetchOne(db, sql: "SELECT text FROM note_texts WHERE noteId = ?", arguments: [id])
        return MirroredNote(id: id, fields: fields, text: text)
    }

    static func medications(_ db: Database) throws -> [MirroredMedication] {
        try entities(.medication, db).compactMap { MirroredMedication(id: $0.id, fields: $0.fields) }.sorted { a, b in
            if a.active != b.active { return a.active }
            return (a.name.lowercased(), a.id.uuidString) < (b.name.lowercased(), b.id.uuidString)
        }
    }

    static func timeZone(_ db: Database) throws -> TimeZone {
        try meta(.timeZone, db).flatMap(TimeZone.init(identifier:)) ?? .current
    }

    static func today(on date: LocalDate?, _ db: Database) throws -> [TodayDose] {
        let zone = try timeZone(db)
        let date = date ?? LocalDate(Date(), in: zone)
        let medications = Dictionary(try medications(db).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        // Answers by key: the hub's record wins over one made here and not yet confirmed.
        var answers: [String: [String: JSONValue]] = [:]
        for (_, fields) in try entities(.dose, db) {
            guard let key = fields["key"]?.string else { continue }
            if answers[key] == nil || answers[key]?["recordedHere"] == .bool(true) { answers[key] = fields }
        }
        var doses: [TodayDose] = []
        for (_, fields) in try entities(.schedule, db) {
            guard let schedule = schedule(from: fields), let medication = medications[schedule.medicationId], medication.active else { continue }
            for time in schedule.times(on: date) {
                let key = "\(schedule.id.text)/\(date)T\(time)"
                let answer = answers[key]
                doses.append(TodayDose(
                    key: key, medicationId: medication.id, medicationName: medication.name, personId: medication.personId,
                    date: date, time: time, amount: schedule.amount,
                    status: answer?["status"]?.string.flatMap(TodayDose.Status.init(rawValue:)) ?? .planned,
                    takenAt: answer?["takenAt"]?.date, waitingToSync: answer?["recordedHere"] == .bool(true)))
            }
        }
        return doses.sorted { ($0.time, $0.medicationName, $0.key) < ($1.time, $1.medicationName, $1.key) }
    }

    /// A schedule from its JSON (the pattern's fields flattened beside its own).
    static func schedule(from fields: [String: JSONValue]) -> DoseSchedule? {
        guard let id = fields["id"]?.string.flatMap(UUID.init(text:)),
              let medicationId = fields["medicationId"]?.string.flatMap(UUID.init(text:)),
              let start = fields["startDate"]?.string.flatMap({ try? LocalDate($0) }),
              let bytes = try? JSONText.bytes(of: .object(fields)),
              let pattern = try? JSONDecoder().decode(DoseSchedule.Pattern.self, from: Data(bytes)) else { return nil }
        return DoseSchedule(id: id, medicationId: medicationId, pattern: pattern, amount: fields["amount"]?.double ?? 1,
                            startDate: start, endDate: fields["endDate"]?.string.flatMap { try? LocalDate($0) })
    }
}
