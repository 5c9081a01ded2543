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

    /// Whether a change concerns this stream: an alert this person may see,
    /// the household (its language), or who this person is — their
    /// credential, their person, their care links — after which the stream
    /// closes and the app reconnects as the person is now.
    func listensTo(_ change: Change) -> Bool {
        switch change.entity {
        case .alert: PermissionPolicy.mayHear(actor, change.audience)
        case .household: true
        case .alertApp, .person, .careLink: changesIdentity(change)
        case .device, .pairingCode, .note, .medication, .schedule, .dose, .panel, .displaySettings, .gameScore: false
        }
    }

    /// Whether a change ends what this stream was opened as.
    func changesIdentity(_ change: Change) -> Bool {
        switch change.entity {
        case .alertApp:
            if change.entityId == app.app.id.text, case .string? = change.payload.field("revokedAt") { true } else { false }
        case .person: change.entityId == app.person.id.text
        case .careLink: change.changesCareLinks && change.entityId.hasPrefix(app.person.id.text + ":")
        case .household, .device, .pairingCode, .note, .medication, .schedule, .dose, .alert, .panel, .displaySettings, .gameScore: false
        }
    }

    /// The event an alert's change makes on this stream, or nil when it
    /// makes none here (another topic, a change that closes nothing).
    func event(for change: Change, wording: AlertWording) -> NtfyEvent? {
        guard change.entity == .alert, let alert = CareAlert(json: change.payload),
              let topic = AlertTopic.first(of: topics, including: alert.kind) else { return nil }
        var event = NtfyEvent(id: NtfyMessageID.of(seq: change.seq), time: change.time, kind: .message, topic: topic.rawValue,
                              sequenceId: alert.id.text)
        guard alert.isOpen else {
            // Acknowledged, answered or resolved: the phone takes it away.
            guard change.op == .update else { return nil }
            event.kind = .clear
            return event
        }
        event.title = wording.title(alert)
        event.message = wording.message(alert)
        event.priority = AlertPriority.of(alert)
        event.tags = AlertPriority.tags(alert)
        event.click = origin + "/#/alerts"
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
            // "I'm on my way" leaves the notification: the hub replaces it with who is coming.
            return NtfyEvent.Action(id: answer.rawValue, label: label, url: origin + link.path(), clear: answer == .acknowledge)
        }
    }
}
