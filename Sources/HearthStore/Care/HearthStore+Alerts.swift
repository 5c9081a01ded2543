import Foundation
import GRDB
import HearthCore

extension HearthStore {
    // MARK: Writing

    /// SOS from a senior's device (or a caregiver's, for the senior): every
    /// caregiver linked to the senior is alerted at once. `raiser` must be
    /// let record that senior's care (herself, or one who looks after her).
    public func raiseSOS(for personId: UUID, as raiser: PermissionPolicy.Actor, by origin: String) async throws -> CareAlert {
        try await write(by: origin) { transaction in
            try PermissionPolicy.require(raiser, .create, .care(of: personId), what: "That person")
            guard let senior = try Self.person(id: personId, transaction.db), senior.archivedAt == nil, senior.role == .senior else {
                throw HearthError.invalid(fields: ["personId": "must be a senior in the household"])
            }
            let raisedBy = try Self.person(id: raiser.personId, transaction.db)
            let alert = CareAlert(kind: .sos, audience: .caregivers, personId: personId, raisedBy: origin, raisedAt: transaction.time,
                                  details: ["personName": .string(senior.name), "raisedByName": .string(raisedBy?.name ?? "")])
            try Self.insertAlert(alert, onceKey: nil, in: &transaction)
            return alert
        }
    }

    /// Clears an alert on every device.
    public func acknowledgeAlert(id: UUID, as responder: PermissionPolicy.Actor, by origin: String) async throws -> CareAlert {
        try await write(by: origin) { transaction in
            var alert = try Self.alert(id: id, for: .edit, as: responder, transaction.db)
            guard alert.acknowledgedAt == nil else { return alert }
            // "OK" on a dose's reminder recorded nothing, so the dose was
            // later counted missed and the caregivers told: a false alarm of
            // the hub's own making. It closes when the dose is answered.
            if alert.kind == .doseDue, alert.resolvedAt == nil, let doseId = alert.doseId,
               try Self.doseAwaitsAnswer(doseId, transaction.db) {
                throw HearthError.conflict("A dose's reminder closes when the dose is answered: Taken, Skip or Later")
            }
            alert.acknowledgedAt = transaction.time
            alert.acknowledgedBy = responder.personId
            // From where ("device:<id>", "alert-app:<id>"), for the alert's history.
            alert.details = alert.details.setting("acknowledgedFrom", .string(origin))
            try Self.saveAlert(alert, in: &transaction)
            return alert
        }
    }

    /// Whether a dose is still waiting for Taken, Skip or Later, and can get
    /// one (its medication is still given).
    static func doseAwaitsAnswer(_ doseId: UUID, _ db: Database) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: """
            SELECT doses.status IN ('due', 'snoozed') AND medications.active = 1 FROM doses
            JOIN medications ON medications.id = doses.medicationId WHERE doses.id = ?
            """), arguments: [doseId.text]) ?? false
    }

    /// "I'm on my way": the senior's screen shows who is coming.
    public func respondToAlert(id: UUID, as responder: PermissionPolicy.Actor, by origin: String) async throws -> CareAlert {
        try await write(by: origin) { transaction in
            var alert = try Self.alert(id: id, for: .edit, as: responder, transaction.db)
            // "I'm on my way" is a caregiver's answer to the senior.
            guard responder.role != .senior else {
                throw HearthError.forbidden("Only a caregiver answers an alert with \"I'm on my way\"")
            }
            guard alert.kind == .sos else { throw HearthError.conflict("Only an SOS is answered with \"I'm on my way\"") }
            guard alert.respondedAt == nil else { return alert }
            alert.respondedAt = transaction.time
            alert.respondedBy = responder.personId
            alert.details = alert.details.setting("respondedFrom", .string(origin))
            if case .object(var details) = alert.details {
                details["respondedByName"] = .string(try Self.person(id: responder.personId, transaction.db)?.name ?? "")
                alert.details = .object(details)
            }
            try Self.saveAlert(alert, in: &transaction)
            return alert
        }
    }

    /// The alert, if `actor` may do `action` to it as it is stored now: one
    /// about a person, whoever cares for them; one about the hub, whoever
    /// sees the hub's alerts. Others are told it does not exist.
    static func alert(id: UUID, for action: PermissionPolicy.Action, as actor: PermissionPolicy.Actor,
                      _ db: Database) throws -> CareAlert {
        guard let alert = try alert(id: id, db) else { throw HearthError.notFound(what: "That alert") }
        if let personId = alert.personId {
            try PermissionPolicy.require(actor, action, .care(of: personId), what: "That alert")
        } else if !PermissionPolicy.seesHubAlerts(actor) {
            throw HearthError.notFound(what: "That alert")
        }
        return alert
    }

    static func insertAlert(_ alert: CareAlert, onceKey: String?, in transaction: inout WriteTransaction) throws {
        try transaction.db.cachedExecute(sql: """
            INSERT INTO alerts (id, kind, audience, personId, doseId, medicationId, onceKey, raisedBy, raisedAt, notifiedAt,
                repeats, details, acknowledgedAt, acknowledgedBy, respondedAt, respondedBy, resolvedAt)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: alertArguments(alert, onceKey: onceKey))
        try transaction.record(entity: .alert, entityId: alert.id.text, op: .create, payload: alert.json)
    }

    static func saveAlert(_ alert: CareAlert, in transaction: inout WriteTransaction) throws {
        try transaction.db.cachedExecute(sql: """
            UPDATE alerts SET notifiedAt = ?, repeats = ?, details = ?, acknowledgedAt = ?, acknowledgedBy = ?,
                respondedAt = ?, respondedBy = ?, resolvedAt = ? WHERE id = ?
            """, arguments: [alert.notifiedAt.millisecondsSince1970, alert.repeats, try alert.details.jsonText(),
                             alert.acknowledgedAt?.millisecondsSince1970, alert.acknowledgedBy?.text,
                             alert.respondedAt?.millisecondsSince1970, alert.respondedBy?.text,
                             alert.resolvedAt?.millisecondsSince1970, alert.id.text])
        try transaction.record(entity: .alert, entityId: alert.id.text, op: .update, payload: alert.json)
    }

    static func alertArguments(_ a: CareAlert, onceKey: String?) throws -> StatementArguments {
        [a.id.text, a.kind.rawValue, a.audience.rawValue, a.personId?.text, a.doseId?.text, a.medicationId?.text, onceKey,
         a.raisedBy, a.raisedAt.millisecondsSince1970, a.notifiedAt.millisecondsSince1970, a.repeats, try a.details.jsonText(),
         a.acknowledgedAt?.millisecondsSince1970, a.acknowledgedBy?.text, a.respondedAt?.millisecondsSince1970,
         a.respondedBy?.text, a.resolvedAt?.millisecondsSince1970]
    }

    /// Marks open alerts of these kinds about a dose as no longer needing
    /// anyone. When `answer` closed them (the dose taken, skipped or put
    /// off), each keeps what it was and who gave it, so a caregiver's missed
    /// dose reads "taken late, at 10:32, recorded by Zosia" in the alert
    /// history (`answerDetails`; `correcting` when the answer is a dose put
    /// right). A later correction rewrites it (`followAnswer`).
    static func resolveAlerts(doseId: UUID, kinds: [CareAlert.Kind], answer: Dose? = nil, correcting: Bool = false,
                              in transaction: inout WriteTransaction) throws {
        let settings = answer == nil ? nil : try reminderSettings(transaction.db)
        for kind in kinds {
            for var alert in try alerts(sql: "SELECT * FROM alerts WHERE doseId = ? AND kind = ? AND resolvedAt IS NULL",
                                        arguments: [doseId.text, kind.rawValue], transaction.db) {
                alert.resolvedAt = transaction.time
                if let answer, let settings {
                    alert.details = try answerDetails(alert.details, of: answer, answeredAt: .of(transaction.time),
                                                      correcting: correcting, settings: settings, transaction.db)
                }
                try saveAlert(alert, in: &transaction)
            }
        }
    }

    // MARK: Reading

    public func alert(id: UUID) async throws -> CareAlert? {
        try await pool.read { db in try Self.alert(id: id, db) }
    }

    /// The alert, if `reader` may see it (else `notFound`).
    public func alert(id: UUID, visibleTo reader: PermissionPolicy.Actor) async throws -> CareAlert {
        try await pool.read { db in try Self.alert(id: id, for: .view, as: reader, db) }
    }

    /// Alerts newest first: about these seniors, plus the hub's own (clock)
    /// when `includeHubAlerts`.
    public func alerts(
        about people: Set<UUID>, includeHubAlerts: Bool, openOnly: Bool, kind: CareAlert.Kind? = nil,
        before: Date? = nil, limit: Int = 100
    ) async throws -> [CareAlert] {
        try await pool.read { db in
            var conditions: [String] = []
            var arguments = StatementArguments()
            let marks = Array(repeating: "?", count: people.count).joined(separator: ", ")
            var whose = people.isEmpty ? "0" : "personId IN (\(marks))"
            _ = arguments.append(contentsOf: StatementArguments(people.map(\.text)))
            if includeHubAlerts { whose += " OR personId IS NULL" }
            conditions.append("(\(whose))")
            if openOnly { conditions.append("acknowledgedAt IS NULL AND resolvedAt IS NULL") }
            if let kind {
                conditions.append("kind = ?")
                _ = arguments.append(contentsOf: [kind.rawValue])
            }
            if let before {
                conditions.append("raisedAt < ?")
                _ = arguments.append(contentsOf: [before.millisecondsSince1970])
            }
            _ = arguments.append(contentsOf: [limit])
            return try Self.alerts(sql: "SELECT * FROM alerts WHERE \(conditions.joined(separator: " AND ")) ORDER BY raisedAt DESC, id LIMIT ?",
                                   arguments: arguments, db)
        }
    }

    static func alert(id: UUID, _ db: Database) throws -> CareAlert? {
        try alerts(sql: "SELECT * FROM alerts WHERE id = ?", arguments: [id.text], db).first
    }

    static func alerts(sql: String, arguments: StatementArguments, _ db: Database) throws -> [CareAlert] {
        try Row.fetchAll(db.cachedStatement(sql: sql), arguments: arguments).map { row in
            guard let id = UUID(text: row["id"]), let kind = CareAlert.Kind(rawValue: row["kind"]),
                  let audience = CareAlert.Audience(rawValue: row["audience"])
            else { throw HearthError.conflict("A stored alert is damaged") }
            func uuid(_ column: String) -> UUID? { (row[column] as String?).flatMap(UUID.init(text:)) }
            func date(_ column: String) -> Date? { (row[column] as Int64?).map(Date.init(millisecondsSince1970:)) }
            return CareAlert(
                id: id, kind: kind, audience: audience, personId: uuid("personId"), doseId: uuid("doseId"),
                medicationId: uuid("medicationId"), raisedBy: row["raisedBy"], raisedAt: Date(millisecondsSince1970: row["raisedAt"]),
                notifiedAt: date("notifiedAt"), repeats: row["repeats"], details: try JSONValue(jsonText: row["details"]),
                acknowledgedAt: date("acknowledgedAt"), acknowledgedBy: uuid("acknowledgedBy"), respondedAt: date("respondedAt"),
                respondedBy: uuid("respondedBy"), resolvedAt: date("resolvedAt"))
        }
    }
}
