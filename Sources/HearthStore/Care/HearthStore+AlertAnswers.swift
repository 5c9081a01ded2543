import Foundation
import GRDB
import HearthCore

/// What a dose's alert says of the answer that closed it, kept true to the
/// dose as it is now. An answer writes it when it closes the alert
/// (`resolveAlerts(…, answer:)`); putting the dose right or taking its
/// answer back writes it again in the same transaction, through `saveAlert`,
/// so the change log and open pages hear it and the alert history never
/// says "Taken at 13:22" of a dose now recorded skipped.
extension HearthStore {
    /// The details' fields that speak of the answer, written anew each time
    /// so nothing of an earlier answer is left beside the new one.
    static let answerFields = ["answer", "answeredAt", "takenAt", "takenLate", "answeredByName", "correctedAt", "correctedByName"]

    /// Answers that follow their dose once they closed its alert. A "Later"
    /// (`snoozed`) does not: she did put it off, whatever became of it.
    static let followingAnswers: Set<String> = ["taken", "skipped", "withdrawn"]

    /// `details` with the answer as `dose` stands: taken (when, and whether
    /// late by the household's grace, `ReminderSettings.isTakenLate`),
    /// skipped, put off, or "withdrawn" when it waits again. `correcting`:
    /// this write puts it right, so who did and when is said too.
    static func answerDetails(_ details: JSONValue, of dose: Dose, answeredAt: JSONValue, correcting: Bool,
                              settings: ReminderSettings, _ db: Database) throws -> JSONValue {
        guard case .object(var fields) = details else { return details }
        for name in answerFields { fields[name] = nil }
        let answered = dose.status.isAnswered || dose.status == .snoozed
        fields["answer"] = .string(answered ? dose.status.rawValue : "withdrawn")
        fields["answeredAt"] = answeredAt
        if dose.status == .taken {
            fields["takenAt"] = .of(dose.takenAt)
            fields["takenLate"] = .bool(settings.isTakenLate(dose))
        }
        if let by = dose.recordedBy { fields["answeredByName"] = .string(try person(id: by, db)?.name ?? "") }
        if correcting, let by = dose.correctedBy {
            fields["correctedAt"] = .of(dose.correctedAt)
            fields["correctedByName"] = .string(try person(id: by, db)?.name ?? "")
        }
        return .object(fields)
    }

    /// Writes `dose` as it is now into the alerts an answer already closed
    /// (open ones are `resolveAlerts`'). `correcting` when the dose was put
    /// right or its answer taken back; otherwise a new answer after one was
    /// taken back, which is when those alerts were answered. An alert whose
    /// words would not change is not written.
    static func followAnswer(of dose: Dose, correcting: Bool, in transaction: inout WriteTransaction) throws {
        // Only a planned dose is reminded of; its alerts are found by their
        // once-keys (`raiseOnce`), which are indexed, as closed alerts by dose are not.
        guard let key = dose.key else { return }
        var settings: ReminderSettings?
        let closed = try alerts(sql: "SELECT * FROM alerts WHERE onceKey IN (?, ?) AND doseId = ? AND resolvedAt IS NOT NULL",
                                arguments: ["\(CareAlert.Kind.doseDue.rawValue):\(key)", "\(CareAlert.Kind.doseMissed.rawValue):\(key)",
                                            dose.id.text], transaction.db)
        for var alert in closed {
            guard case .string(let answer)? = alert.details.field("answer"), followingAnswers.contains(answer),
                  correcting || answer == "withdrawn" else { continue }
            let answeredAt = correcting ? alert.details.field("answeredAt") ?? .of(alert.resolvedAt) : .of(transaction.time)
            // Read only when an alert needs it: most answers close no alert an earlier answer closed.
            if settings == nil { settings = try reminderSettings(transaction.db) }
            let details = try answerDetails(alert.details, of: dose, answeredAt: answeredAt, correcting: correcting,
                                            settings: settings ?? ReminderSettings(), transaction.db)
            guard details != alert.details else { continue }
            alert.details = details
            try saveAlert(alert, in: &transaction)
        }
    }
}
