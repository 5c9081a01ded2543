import Foundation
import HearthCore
import HearthStore

/// One alert app's subscription: whose alerts, which topics, and the
/// address the phone reached the hub at, for the links in its messages.
public struct AlertReader: Sendable {
    public let app: SignedInAlertApp
    public let topics: [AlertTopic]
    /// `http://192.168.1.20:8080`: where the phone's taps and buttons go.
    public let origin: String

    public init(app: SignedInAlertApp, topics: [AlertTopic], origin: String) {
        self.app = app
        self.topics = topics
        self.origin = origin
    }

    /// The topics as the app named them, for the `open` event.
    public var topicList: String { topics.map(\.rawValue).joined(separator: ",") }

    var actor: PermissionPolicy.Actor { app.actor }

    /// Whether a change may concern a stream of this credential, whoever its
    /// person looks after by then: alerts, the household (its language),
    /// and who this person is — their credential, their person, their care
    /// links. Which alerts it hears is decided as each arrives (`listensTo`),
    /// by the person as they are then.
    func mayConcern(_ change: Change) -> Bool {
        switch change.entity {
        case .alert, .household: true
        case .alertApp, .person, .careLink: changesIdentity(change)
        case .device, .pairingCode, .note, .medication, .schedule, .dose, .panel, .displaySettings, .gameScore, .awayChoice: false
        }
    }

    /// Whether this person may hear of the change: an alert this person may see, or the household.
    func listensTo(_ change: Change) -> Bool {
        switch change.entity {
        case .alert: PermissionPolicy.mayHear(actor, change.audience)
        case .household: true
        case .alertApp, .person, .careLink, .device, .pairingCode, .note, .medication, .schedule, .dose, .panel, .displaySettings,
             .gameScore, .awayChoice: false
        }
    }

    /// Whether a change may alter who this credential reads for: its
    /// revocation, a change of its person (a new role, archived), or a care
    /// link of theirs made or undone. The stream reads the credential again.
    func changesIdentity(_ change: Change) -> Bool {
        switch change.entity {
        case .alertApp:
            if change.entityId == app.app.id.text, case .string? = change.payload.field("revokedAt") { true } else { false }
        case .person: change.entityId == app.person.id.text
        case .careLink: change.changesCareLinks && change.entityId.hasPrefix(app.person.id.text + ":")
        case .household, .device, .pairingCode, .note, .medication, .schedule, .dose, .alert, .panel, .displaySettings, .gameScore, .awayChoice: false
        }
    }

    /// The same subscription for the credential as it is now.
    func reading(as app: SignedInAlertApp) -> AlertReader {
        AlertReader(app: app, topics: topics, origin: origin)
    }

    /// The event an alert's change makes on this stream, or nil when it
    /// makes none here (another topic, a change that closes nothing).
    func event(for change: Change, wording: AlertWording) -> NtfyEvent? {
        guard change.entity == .alert, let alert = CareAlert(json: change.payload),
              let topic = AlertTopic.first(of: topics, including: alert.kind) else { return nil }
        var event = NtfyEvent(id: NtfyMessageID.of(seq: change.seq, at: change.time), time: change.time, kind: .message, topic: topic.rawValue,
                              sequenceId: alert.id.text)
        // An SOS its senior cancelled replaces the call on her caregivers'
        // phones with the news that all is well (same sequence id), without
        // an alarm and with nothing to press; her own phone just takes it away.
        if alert.isCancelledByItsSenior, change.op == .update, alert.personId != actor.personId {
            event.title = wording.title(alert)
            event.message = wording.message(alert)
            event.priority = AlertPriority.of(alert)
            event.tags = AlertPriority.tags(alert)
            event.click = origin + "/#/alerts"
            return event
        }
        // Acknowledged, answered or resolved: the phone takes it away. So
        // does the phone of whoever answered "I'm on my way": they know.
        guard alert.isOpen, alert.respondedBy == nil || alert.respondedBy != actor.personId else {
            guard change.op == .update else { return nil }
            event.kind = .clear
            return event
        }
        event.title = wording.title(alert)
        event.message = wording.message(alert)
        event.priority = AlertPriority.of(alert)
        event.tags = AlertPriority.tags(alert)
        // A due dose is answered on Today (Taken, Skip, Later); the rest on Alerts.
        event.click = origin + (alert.kind == .doseDue ? "/#/today" : "/#/alerts")
        event.actions = actions(for: alert, wording: wording)
        return event
    }

    /// The buttons this person may press on this alert.
    func actions(for alert: CareAlert, wording: AlertWording) -> [NtfyEvent.Action] {
        let mayAnswer = if let senior = alert.personId {
            PermissionPolicy.decide(actor, .edit, .care(of: senior)) == .allow
        } else {
            PermissionPolicy.seesHubAlerts(actor)
        }
        guard mayAnswer else { return [] }
        var answers: [(AlertActionLink.Answer, String)] = []
        switch alert.kind {
        case .sos:
            if alert.respondedAt == nil, actor.role != .senior { answers.append((.respond, wording.onMyWayLabel)) }
            answers.append((.acknowledge, wording.acknowledgeLabel))
        case .doseMissed, .lowStock, .clock:
            answers.append((.acknowledge, wording.acknowledgeLabel))
        case .doseDue:
            // A due dose's reminder closes when the dose is answered, on the Today page.
            break
        }
        return answers.map { answer, label in
            let link = AlertActionLink(alertId: alert.id, answer: answer, signedBy: app)
            // Either answer takes the notification away once the hub says yes:
            // left, the app would show its own copy of the SOS again over the
            // hub's "Anna is on the way" (it writes back the message it held
            // when the button was pressed).
            return NtfyEvent.Action(id: answer.rawValue, label: label, url: origin + link.path(), clear: true)
        }
    }
}
