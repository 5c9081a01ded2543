import Foundation

/// Who is told of an alert away from home, by which channel and when — one
/// ladder for every kind of alert. It climbs from the moment the alert is
/// raised and stops at the first answer ("I'm on my way", OK, the dose
/// answered). Pure, like `ReminderRules`: the hub keeps what was sent in its
/// store and asks again at `nextCheck`, so a hub restarted in the middle
/// goes on where it was and never sends a rung twice.
///
/// - An SOS: at once, each caregiver linked to the senior by the channels
///   she chose (a text needs her number); after `contactsAfterMinutes` with
///   no answer, each emergency contact by text. Quiet hours never hold it.
/// - A missed dose: after `missedDoseAwayAfterMinutes` with no answer, each
///   caregiver by the channels she chose; a rung that falls in quiet hours
///   waits until they end. No contact is ever told of a dose.
/// - Low stock, the hub's clock, a dose that is due: never away from home.
public enum EscalationLadder {
    public enum Channel: String, Hashable, Sendable, Codable, CaseIterable {
        /// A text through the hub's modem.
        case sms
        /// A push through the Internet ntfy server.
        case push
        /// A text to an emergency contact, outside the household.
        case contact
    }

    /// Someone the ladder may reach: a caregiver (her person's id as the
    /// key) or an emergency contact (its own id).
    public struct Recipient: Hashable, Sendable {
        public var id: UUID
        /// A number texts can go to; nil when none is kept.
        public var phone: String?
        public var away: AwayChoice

        public init(id: UUID, phone: String?, away: AwayChoice) {
            self.id = id
            self.phone = phone
            self.away = away
        }

        /// An emergency contact: texted, when an SOS is not answered.
        public static func contact(id: UUID, phone: String) -> Recipient {
            Recipient(id: id, phone: phone, away: AwayChoice(sms: true, push: false))
        }
    }

    /// One message on its way: by which channel, to whom, from when.
    public struct Rung: Hashable, Sendable {
        public var channel: Channel
        public var recipient: UUID
        public var at: Date

        public init(channel: Channel, recipient: UUID, at: Date) {
            self.channel = channel
            self.recipient = recipient
            self.at = at
        }

        /// What the store keeps of it, so it is never sent twice.
        public var sent: Sent { Sent(channel: channel, recipient: recipient) }
    }

    /// A rung already handed to its channel (whatever became of it there).
    public struct Sent: Hashable, Sendable {
        public var channel: Channel
        public var recipient: UUID

        public init(channel: Channel, recipient: UUID) {
            self.channel = channel
            self.recipient = recipient
        }
    }

    public struct Step: Hashable, Sendable {
        /// What is due now and not sent yet, in the ladder's order.
        public var send: [Rung]
        /// When to look at this alert again; nil when the ladder is done.
        public var nextCheck: Date?

        public init(send: [Rung], nextCheck: Date?) {
            self.send = send
            self.nextCheck = nextCheck
        }
    }

    /// Every rung of `alert`'s ladder, whatever has been sent: the caregivers
    /// who look after its senior now, and the household's contacts.
    public static func rungs(for alert: CareAlert, carers: [Recipient], contacts: [Recipient],
                             settings: EscalationSettings, quietHours: QuietHours?, timeZone: TimeZone) -> [Rung] {
        switch alert.kind {
        case .sos:
            let contactsAt = alert.raisedAt.addingTimeInterval(settings.contactsAfter)
            return carers.flatMap { byChoice($0, at: alert.raisedAt) }
                + contacts.filter { $0.phone != nil }.map { Rung(channel: .contact, recipient: $0.id, at: contactsAt) }
        case .doseMissed:
            var at = alert.raisedAt.addingTimeInterval(settings.missedDoseAway)
            if let quietHours { at = quietHours.end(ofStretchHolding: at, in: timeZone) }
            return carers.flatMap { byChoice($0, at: at) }
        case .doseDue, .lowStock, .clock:
            return []
        }
    }

    /// How late a rung may still go: a text about a dose two hours old, or
    /// an SOS from yesterday, tells nobody anything they can act on (a hub
    /// that was off, or alerts left open from before texts were set up).
    public static func staleAfter(_ kind: CareAlert.Kind) -> TimeInterval {
        kind == .sos ? 12 * 3600 : 2 * 3600
    }

    /// What to send now, and when to look again.
    public static func step(for alert: CareAlert, carers: [Recipient], contacts: [Recipient], sent: Set<Sent>, at now: Date,
                            settings: EscalationSettings, quietHours: QuietHours?, timeZone: TimeZone) -> Step {
        // The first answer ends the ladder: nobody is texted after it.
        guard alert.isOpen, alert.respondedAt == nil else { return Step(send: [], nextCheck: nil) }
        let waiting = rungs(for: alert, carers: carers, contacts: contacts, settings: settings, quietHours: quietHours, timeZone: timeZone)
            .filter { !sent.contains($0.sent) && now.timeIntervalSince($0.at) <= staleAfter(alert.kind) }
        return Step(send: waiting.filter { $0.at <= now }, nextCheck: waiting.filter { $0.at > now }.map(\.at).min())
    }

    /// A caregiver's rungs: a text if she chose texts and has a number, a
    /// push if she chose push.
    static func byChoice(_ carer: Recipient, at: Date) -> [Rung] {
        var rungs: [Rung] = []
        if carer.away.sms, carer.phone != nil { rungs.append(Rung(channel: .sms, recipient: carer.id, at: at)) }
        if carer.away.push { rungs.append(Rung(channel: .push, recipient: carer.id, at: at)) }
        return rungs
    }
}
