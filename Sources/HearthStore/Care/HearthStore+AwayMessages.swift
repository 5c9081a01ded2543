import Foundation
import GRDB
import HearthCore

/// One rung of an alert's escalation ladder as the hub keeps it: a text or
/// a push to one person away from home, from the moment it was due until
/// it went (or could not), and her answer by reply.
public struct AwayMessage: Sendable, Hashable {
    public enum State: String, Sendable, Codable, CaseIterable {
        /// Due, and waiting for its channel (retried with backoff when it failed).
        case queued
        /// Handed to the channel: gammu-smsd's queue, the push server.
        case sent
        /// The channel said it arrived.
        case delivered
        /// It did not go, and will not: `problem` says why.
        case failed
        /// She answered the alert by replying to it.
        case answered
    }

    public var id: UUID
    public var alertId: UUID
    public var channel: EscalationLadder.Channel
    /// A person's id, or an emergency contact's.
    public var recipient: UUID
    public var recipientName: String
    /// The number a text goes to; nil for a push.
    public var number: String?
    /// What a caregiver replies with; nil for a push and a contact's text.
    public var code: String?
    public var state: State
    public var queuedAt: Date
    public var sentAt: Date?
    public var attempts: Int
    public var nextAttemptAt: Date?
    /// Why it failed, or is being tried again, in a few words.
    public var problem: String?
    public var answeredAt: Date?
}

/// What the escalation service sends now: each message with the alert it
/// is about, and when to look again.
public struct AwayPass: Sendable {
    public var due: [(message: AwayMessage, alert: CareAlert)]
    public var nextCheck: Date?
}

/// What became of a text that came in.
public enum TextReplyOutcome: Sendable, Equatable {
    /// It answered an alert, as the notification's button does.
    case answered(alertId: UUID, by: String, onMyWay: Bool)
    /// Not "1 1234" / "2 1234": anything else people text to a modem.
    case notAReply
    /// No text went to this number with this code, or it can no longer be answered.
    case unknownCode
    /// More replies from this number (or from everyone) than anyone sends.
    case tooMany

    var logged: String {
        switch self {
        case .answered: "answered"
        case .notAReply: "not-a-reply"
        case .unknownCode: "unknown-code"
        case .tooMany: "too-many"
        }
    }
}

extension HearthStore {
    /// How long a text's code can answer its alert.
    public static let replyCodeLifetime: TimeInterval = 24 * 3600
    /// Replies acted on per number in `replyWindow`, and from everyone.
    static let repliesPerNumber = 5
    static let repliesFromEveryone = 40
    static let replyWindow: TimeInterval = 600

    /// Climbs each open ladder at `now`: queues the rungs that came due
    /// (kept before anything is sent, so a restart never sends one twice),
    /// gives up on those whose alert was answered before they could go, and
    /// returns what waits to be sent now. `channels` are those the hub can
    /// use (no modem: no texts). A text that is not an SOS's is held back
    /// (failed, "monthly limit") once `monthlyLimit` texts went this month.
    /// `settings` nil: the household's own (`escalationSettings`).
    public func climbLadders(at now: Date, channels: Set<EscalationLadder.Channel>, settings chosen: EscalationSettings? = nil,
                             quietHours: QuietHours?, monthlyLimit: Int) async throws -> AwayPass {
        // Most of the time nothing is open: read, and write nothing.
        let busy = try await pool.read { db in
            try Bool.fetchOne(db, sql: """
                SELECT EXISTS (SELECT 1 FROM alerts WHERE kind IN ('sos', 'dose-missed') AND acknowledgedAt IS NULL
                    AND resolvedAt IS NULL AND respondedAt IS NULL)
                OR EXISTS (SELECT 1 FROM away_messages WHERE state = 'queued')
                """) ?? false
        }
        guard busy else { return AwayPass(due: [], nextCheck: nil) }
        return try await writeOutsideChangeLog { db in
            let timeZone = try Self.household(db).flatMap { TimeZone(identifier: $0.timeZone) } ?? .current
            let settings = try chosen ?? Self.escalationSettings(db)
            var nextCheck: Date?
            func later(_ date: Date?) { if let date { nextCheck = min(nextCheck ?? date, date) } }
            let open = try Self.alerts(sql: """
                SELECT * FROM alerts WHERE kind IN ('sos', 'dose-missed') AND acknowledgedAt IS NULL AND resolvedAt IS NULL
                    AND respondedAt IS NULL AND raisedAt >= ?
                """, arguments: [now.addingTimeInterval(-EscalationLadder.staleAfter(.sos) - 86_400).millisecondsSince1970], db)
            let contacts = channels.contains(.contact) ? try Self.emergencyContacts(db) : []
            for alert in open {
                guard let seniorId = alert.personId else { continue }
                let carers = try Self.awayRecipients(caringFor: seniorId, channels: channels, db)
                let sent = try Self.sentRungs(of: alert.id, db)
                let step = EscalationLadder.step(
                    for: alert, carers: carers.map(\.recipient), contacts: contacts.map { .contact(id: $0.id, phone: $0.phone) },
                    sent: sent, at: now, settings: settings, quietHours: quietHours, timeZone: timeZone)
                later(step.nextCheck)
                for rung in step.send {
                    let name = carers.first { $0.recipient.id == rung.recipient }?.name
                        ?? contacts.first { $0.id == rung.recipient }?.name ?? ""
                    let number = rung.channel == .push ? nil
                        : (carers.first { $0.recipient.id == rung.recipient }?.recipient.phone
                            ?? contacts.first { $0.id == rung.recipient }?.phone)
                    try Self.queue(rung, of: alert, name: name, number: number, at: now, db)
                }
            }
            try Self.giveUpOnAnswered(at: now, db)
            let month = try Self.textsSent(since: Self.startOfMonth(now, in: timeZone), db)
            var sentThisMonth = month
            var due: [(message: AwayMessage, alert: CareAlert)] = []
            for message in try Self.awayMessages(sql: "SELECT * FROM away_messages WHERE state = 'queued' ORDER BY queuedAt, rowid",
                                                 arguments: [], db) {
                guard let alert = try Self.alert(id: message.alertId, db) else { continue }
                // Compared as stored, in whole milliseconds: a rung queued at
                // this very `now` was stored rounded, up to half a millisecond
                // later, and waited a pass (in which its alert could be answered).
                if let next = message.nextAttemptAt, next.millisecondsSince1970 > now.millisecondsSince1970 {
                    later(next)
                    continue
                }
                if message.channel != .push {
                    // An SOS is never held back by what texts cost.
                    if alert.kind != .sos, sentThisMonth >= monthlyLimit {
                        try Self.setAwayState(message.id, .failed, problem: "monthly limit of \(monthlyLimit) texts reached", db)
                        continue
                    }
                    sentThisMonth += 1
                }
                due.append((message, alert))
            }
            return AwayPass(due: due, nextCheck: nextCheck)
        }
    }

    /// The message went: gammu-smsd took it, the push server answered.
    public func awayMessageSent(_ id: UUID, at time: Date) async throws {
        try await writeOutsideChangeLog { db in
            try db.execute(sql: """
                UPDATE away_messages SET state = 'sent', sentAt = ?, attempts = attempts + 1, nextAttemptAt = NULL, problem = NULL
                WHERE id = ? AND state = 'queued'
                """, arguments: [time.millisecondsSince1970, id.text])
        }
    }

    /// It could not go now: tried again at `retryAt`, or never when nil.
    public func awayMessageNotSent(_ id: UUID, problem: String, retryAt: Date?) async throws {
        try await writeOutsideChangeLog { db in
            try db.execute(sql: """
                UPDATE away_messages SET attempts = attempts + 1, problem = ?, nextAttemptAt = ?,
                    state = CASE WHEN ? IS NULL THEN 'failed' ELSE state END
                WHERE id = ? AND state = 'queued'
                """, arguments: [String(problem.prefix(200)), retryAt?.millisecondsSince1970, retryAt?.millisecondsSince1970, id.text])
        }
    }

    /// What the ladder sent for an alert, oldest first.
    public func awayMessages(ofAlert id: UUID) async throws -> [AwayMessage] {
        try await pool.read { db in
            try Self.awayMessages(sql: "SELECT * FROM away_messages WHERE alertId = ? ORDER BY queuedAt, rowid", arguments: [id.text], db)
        }
    }

    /// Texts (to caregivers and contacts) that went since `start`: what the household pays for.
    public func textsSent(since start: Date) async throws -> Int {
        try await pool.read { db in try Self.textsSent(since: start, db) }
    }

    /// A text that came in to the hub's modem from `number`: if it is a
    /// reply (`reply`, read by `TextReply`) with the code of a text the hub
    /// sent to that same number, still open, it answers that alert as that
    /// person, as her notification's button would. Anything else acts on
    /// nothing. Each is kept without its words, so a flood is turned away.
    public func takeTextReply(from number: String, reply: (onMyWay: Bool, code: String)?, at now: Date) async throws -> TextReplyOutcome {
        let found: (message: AwayMessage, actor: PermissionPolicy.Actor, name: String)?
        let outcome: TextReplyOutcome?
        (found, outcome) = try await writeOutsideChangeLog { db in
            let sender = PhoneNumber.dialled(number)
            let since = now.addingTimeInterval(-Self.replyWindow).millisecondsSince1970
            try db.execute(sql: "DELETE FROM text_replies WHERE at < ?", arguments: [now.addingTimeInterval(-86_400).millisecondsSince1970])
            let fromNumber = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM text_replies WHERE number = ? AND at >= ?", arguments: [sender, since]) ?? 0
            let fromEveryone = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM text_replies WHERE at >= ?", arguments: [since]) ?? 0
            func kept(_ outcome: TextReplyOutcome) throws -> TextReplyOutcome {
                try db.execute(sql: "INSERT INTO text_replies (at, number, outcome) VALUES (?, ?, ?)",
                               arguments: [now.millisecondsSince1970, sender, outcome.logged])
                return outcome
            }
            guard fromNumber < Self.repliesPerNumber, fromEveryone < Self.repliesFromEveryone else { return (nil, try kept(.tooMany)) }
            guard let reply else { return (nil, try kept(.notAReply)) }
            guard let message = try Self.awayMessages(sql: """
                    SELECT * FROM away_messages WHERE code = ? AND channel = 'sms' AND state IN ('sent', 'delivered') AND sentAt >= ?
                    """, arguments: [reply.code, now.addingTimeInterval(-Self.replyCodeLifetime).millisecondsSince1970], db).first,
                  let texted = message.number, PhoneNumber.sameLine(texted, number),
                  let alert = try Self.alert(id: message.alertId, db), alert.isOpen,
                  let person = try Self.person(id: message.recipient, db), person.archivedAt == nil
            else { return (nil, try kept(.unknownCode)) }
            let actor = try Self.actor(for: person, db)
            // Unlinked since: the code answers nothing for her any more.
            guard let seniorId = alert.personId, actor.caresFor.contains(seniorId) else { return (nil, try kept(.unknownCode)) }
            _ = try kept(.answered(alertId: alert.id, by: person.name, onMyWay: reply.onMyWay))
            return ((message, actor, person.name), nil)
        }
        if let outcome { return outcome }
        guard let found else { return .unknownCode }
        let from = "text:\(found.message.id.text)"
        let alert = try await alert(id: found.message.alertId)
        // "1" answers an SOS "I'm on my way"; anything else it is "seen", as OK is.
        let onMyWay = reply?.onMyWay == true && alert?.kind == .sos
        if onMyWay {
            _ = try await respondToAlert(id: found.message.alertId, as: found.actor, by: from)
        } else {
            _ = try await acknowledgeAlert(id: found.message.alertId, as: found.actor, by: from)
        }
        try await writeOutsideChangeLog { db in
            try db.execute(sql: "UPDATE away_messages SET state = 'answered', answeredAt = ? WHERE id = ?",
                           arguments: [now.millisecondsSince1970, found.message.id.text])
        }
        return .answered(alertId: found.message.alertId, by: found.name, onMyWay: onMyWay)
    }

    // MARK: Inside a transaction

    struct AwayRecipient {
        var recipient: EscalationLadder.Recipient
        var name: String
    }

    /// Everyone who looks after `seniorId` now, with her number and her
    /// choice as far as the hub's `channels` can carry it.
    static func awayRecipients(caringFor seniorId: UUID, channels: Set<EscalationLadder.Channel>, _ db: Database) throws -> [AwayRecipient] {
        try Row.fetchAll(db.cachedStatement(sql: """
            SELECT people.id, people.name, people.phone, away_choices.sms, away_choices.push, away_choices.pushTopic FROM care_links
            JOIN people ON people.id = care_links.caregiverId AND people.archivedAt IS NULL
            LEFT JOIN away_choices ON away_choices.personId = people.id
            WHERE care_links.seniorId = ? ORDER BY people.name, people.id
            """), arguments: [seniorId.text]).compactMap { row in
            guard let id = UUID(text: row["id"]) else { return nil }
            let choice = AwayChoice(sms: (row["sms"] as Bool?) == true && channels.contains(.sms),
                                    // A push needs her topic (made when she chose push).
                                    push: (row["push"] as Bool?) == true && (row["pushTopic"] as String?) != nil && channels.contains(.push))
            return AwayRecipient(recipient: .init(id: id, phone: row["phone"], away: choice), name: row["name"])
        }
    }

    static func sentRungs(of alertId: UUID, _ db: Database) throws -> Set<EscalationLadder.Sent> {
        Set(try Row.fetchAll(db.cachedStatement(sql: "SELECT channel, recipient FROM away_messages WHERE alertId = ?"),
                             arguments: [alertId.text]).compactMap { row in
            guard let channel = EscalationLadder.Channel(rawValue: row["channel"]), let recipient = UUID(text: row["recipient"]) else { return nil }
            return EscalationLadder.Sent(channel: channel, recipient: recipient)
        })
    }

    static func queue(_ rung: EscalationLadder.Rung, of alert: CareAlert, name: String, number: String?, at now: Date,
                      _ db: Database) throws {
        // Only a caregiver's text carries a code: a contact cannot answer for the household.
        let code = rung.channel == .sms ? try freeReplyCode(db) : nil
        try db.execute(sql: """
            INSERT INTO away_messages (id, alertId, channel, recipient, recipientName, number, code, state, queuedAt, nextAttemptAt)
            VALUES (?, ?, ?, ?, ?, ?, ?, 'queued', ?, ?)
            ON CONFLICT (alertId, channel, recipient) DO NOTHING
            """, arguments: [UUID.random().text, alert.id.text, rung.channel.rawValue, rung.recipient.text, name, number, code,
                             now.millisecondsSince1970, now.millisecondsSince1970])
    }

    /// Four digits no text that can still be answered carries.
    static func freeReplyCode(_ db: Database) throws -> String {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<50 {
            let code = String(Int.random(in: 1000...9999, using: &generator))
            let taken = try Bool.fetchOne(db, sql: """
                SELECT EXISTS (SELECT 1 FROM away_messages WHERE code = ? AND state IN ('queued', 'sent', 'delivered'))
                """, arguments: [code]) ?? true
            if !taken { return code }
        }
        return String(Int.random(in: 10000...999_999, using: &generator))
    }

    /// A rung still waiting when its alert was answered, closed or its
    /// person unlinked or archived does not go.
    static func giveUpOnAnswered(at now: Date, _ db: Database) throws {
        try db.execute(sql: """
            UPDATE away_messages SET state = 'failed', nextAttemptAt = NULL,
                problem = 'not sent: answered at home first'
            WHERE state = 'queued' AND alertId IN (SELECT id FROM alerts WHERE acknowledgedAt IS NOT NULL
                OR resolvedAt IS NOT NULL OR respondedAt IS NOT NULL)
            """)
        try db.execute(sql: """
            UPDATE away_messages SET state = 'failed', nextAttemptAt = NULL, problem = 'not sent: no longer looks after her'
            WHERE state = 'queued' AND channel IN ('sms', 'push') AND NOT EXISTS (
                SELECT 1 FROM care_links JOIN alerts ON alerts.personId = care_links.seniorId
                JOIN people ON people.id = care_links.caregiverId AND people.archivedAt IS NULL
                WHERE alerts.id = away_messages.alertId AND care_links.caregiverId = away_messages.recipient)
            """)
    }

    static func setAwayState(_ id: UUID, _ state: AwayMessage.State, problem: String?, _ db: Database) throws {
        try db.execute(sql: "UPDATE away_messages SET state = ?, problem = ?, nextAttemptAt = NULL WHERE id = ?",
                       arguments: [state.rawValue, problem, id.text])
    }

    static func textsSent(since start: Date, _ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: """
            SELECT COUNT(*) FROM away_messages WHERE channel IN ('sms', 'contact') AND sentAt >= ?
            """, arguments: [start.millisecondsSince1970]) ?? 0
    }

    static func startOfMonth(_ date: Date, in timeZone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar.dateInterval(of: .month, for: date)?.start ?? date
    }

    static func awayMessages(sql: String, arguments: StatementArguments, _ db: Database) throws -> [AwayMessage] {
        try Row.fetchAll(db, sql: sql, arguments: arguments).compactMap { row in
            guard let id = UUID(text: row["id"]), let alertId = UUID(text: row["alertId"]), let recipient = UUID(text: row["recipient"]),
                  let channel = EscalationLadder.Channel(rawValue: row["channel"]), let state = AwayMessage.State(rawValue: row["state"])
            else { return nil }
            func date(_ column: String) -> Date? { (row[column] as Int64?).map(Date.init(millisecondsSince1970:)) }
            return AwayMessage(id: id, alertId: alertId, channel: channel, recipient: recipient, recipientName: row["recipientName"],
                               number: row["number"], code: row["code"], state: state,
                               queuedAt: Date(millisecondsSince1970: row["queuedAt"]), sentAt: date("sentAt"), attempts: row["attempts"],
                               nextAttemptAt: date("nextAttemptAt"), problem: row["problem"], answeredAt: date("answeredAt"))
        }
    }
}
