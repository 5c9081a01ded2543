import HearthCore

/// The words a webhook carries for a person to read on a phone's
/// notification (ntfy shows `message`; Home Assistant can forward it).
/// English, as the hub's other outgoing text; the structured fields beside
/// it let an automation say it another way.
struct WebhookMessage: Equatable {
    var title: String
    var text: String

    init(kind: CareAlert.Kind, personName: String?, medicationName: String?) {
        let person = personName ?? "Someone"
        let medication = medicationName ?? "a medication"
        switch kind {
        case .sos:
            title = "SOS"
            text = "\(person) pressed SOS"
        case .doseDue:
            title = "Dose due"
            text = "\(person): time for \(medication)"
        case .doseMissed:
            title = "Dose missed"
            text = "\(person) has not taken \(medication)"
        case .lowStock:
            title = "Running low"
            text = "\(medication) for \(person) is running low"
        case .clock:
            title = "Clock looks wrong"
            text = "The hub's clock looks wrong; open Hearth to set it from a phone"
        }
    }
}
