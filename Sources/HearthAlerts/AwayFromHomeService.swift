import Foundation
import HearthCore
import HearthStore
import Logging
import ServiceLifecycle

/// Tells caregivers who are not at home: climbs each open alert's
/// escalation ladder (`HearthStore.climbLadders`, which asks
/// `EscalationLadder.step` and keeps every rung before it is sent) and hands
/// what is due to its channel. It wakes when an alert changes and when the
/// ladder's next rung is due; a text gammu-smsd would not take is tried
/// again with backoff while its alert stays unanswered, and admins are told
/// once. It never stands in the way of the channels at home: those read the
/// change log on their own.
public struct AwayFromHomeService: Service {
    let store: any AwayLadders
    let sms: SMSSettings
    let gateway: SMSGateway
    let push: PushSettings
    let pusher: PushSender
    let quietHours: QuietHours?
    let status: AwayStatus
    let logger: Logger
    /// The longest sleep, so a clock set late is noticed.
    var longestSleep: TimeInterval = 60
    /// Called after each pass with what it sent; tests follow the service through it.
    let afterPass: @Sendable (AwayPass) async -> Void

    public init(store: any AwayLadders, sms: SMSSettings, gateway: SMSGateway? = nil, push: PushSettings = PushSettings(),
                quietHours: QuietHours?, status: AwayStatus,
                logger: Logger, afterPass: @escaping @Sendable (AwayPass) async -> Void = { _ in }) {
        self.store = store
        self.sms = sms
        self.gateway = gateway ?? SMSGateway(configPath: sms.smsdConfig)
        self.push = push
        self.pusher = PushSender(server: push.server)
        self.quietHours = quietHours
        self.status = status
        self.logger = logger
        self.afterPass = afterPass
    }

    /// The channels the household turned on.
    var channels: Set<EscalationLadder.Channel> {
        let texts: Set<EscalationLadder.Channel> = sms.enabled ? [.sms, .contact] : []
        return texts.union(push.enabled ? [.push] : [])
    }

    public func run() async throws {
        guard !channels.isEmpty else { return }
        let signal = WakeSignal()
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.wakeOnAlertChanges(signal) }
            group.addTask { await cancelWhenGracefulShutdown { await self.climbUntilCancelled(signal: signal) } }
            await group.next()
            group.cancelAll()
        }
    }

    /// One pass: what is due goes, in the ladder's order (an SOS's texts
    /// before a dose's, as the alerts were raised).
    func pass() async throws -> AwayPass {
        let pass = try await store.climbLadders(at: store.currentTime(), channels: channels, settings: nil,
                                                quietHours: quietHours, monthlyLimit: sms.monthlyLimit)
        guard !pass.due.isEmpty else { return pass }
        let household = try await store.household()
        let wording = AlertWording(household)
        var retry: Date?
        for (message, alert) in pass.due.sorted(by: { ($0.alert.kind == .sos ? 0 : 1) < ($1.alert.kind == .sos ? 0 : 1) }) {
            if let again = await send(message, about: alert, wording: wording, household: household?.name ?? "") {
                retry = min(retry ?? again, again)
            }
        }
        var result = pass
        if let retry { result.nextCheck = min(result.nextCheck ?? retry, retry) }
        await countThisMonth(timeZone: wording.timeZone)
        return result
    }

    /// Hands one message to its channel; returns when to try again if it did not go.
    func send(_ message: AwayMessage, about alert: CareAlert, wording: AlertWording, household: String) async -> Date? {
        let now = store.currentTime()
        let text: TextMessage
        switch message.channel {
        case .sms:
            guard let code = message.code else { return await gaveUp(message, "no reply code") }
            text = wording.textMessage(alert, code: code)
        case .contact:
            text = wording.contactTextMessage(alert, household: household)
        case .push:
            return await publish(message, about: alert, wording: wording)
        }
        guard let number = message.number.flatMap(SMSGateway.dialable) else {
            return await gaveUp(message, "no number a modem can dial")
        }
        do {
            let id = try await gateway.send(text, to: number)
            try await store.awayMessageSent(message.id, at: now)
            status.texted(at: now)
            logger.notice("texted", metadata: ["event": "away.sent", "alert": "\(alert.id.text)", "kind": "\(alert.kind.rawValue)",
                                               "channel": "\(message.channel.rawValue)", "smsd": "\(id)", "parts": "\(text.parts)"])
            return nil
        } catch {
            let problem = "\(error)"
            let retryAt = now.addingTimeInterval(Self.backoff(after: message.attempts))
            try? await store.awayMessageNotSent(message.id, problem: problem, retryAt: retryAt)
            if status.textFailed(problem) {
                logger.error("texts cannot go: tell the household's admin", metadata: [
                    "event": "away.problem", "problem": "\(problem)", "config": "\(sms.smsdConfig)"])
            }
            return retryAt
        }
    }

    /// A push to her secret topic; the server's refusal of this one request
    /// (not a passing 429 or 5xx) is not tried again.
    func publish(_ message: AwayMessage, about alert: CareAlert, wording: AlertWording) async -> Date? {
        let now = store.currentTime()
        guard let topic = try? await store.pushTopic(of: message.recipient) else { return await gaveUp(message, "she has no push topic") }
        var seniorPhone: String?
        if let seniorId = alert.personId { seniorPhone = (try? await store.person(id: seniorId))??.phone }
        let notification = wording.push(alert, content: push.content, seniorPhone: seniorPhone)
        do throws(PushProblem) {
            try await pusher.publish(notification, topic: topic)
        } catch {
            if status.pushFailed(error.description) {
                logger.error("pushes cannot go: tell the household's admin", metadata: [
                    "event": "away.problem", "problem": "\(error)", "server": "\(push.server)"])
            }
            guard error.isPassing else { return await gaveUp(message, error.description) }
            let retryAt = now.addingTimeInterval(Self.backoff(after: message.attempts))
            try? await store.awayMessageNotSent(message.id, problem: error.description, retryAt: retryAt)
            return retryAt
        }
        try? await store.awayMessageSent(message.id, at: now)
        status.pushed(at: now)
        logger.notice("pushed", metadata: ["event": "away.sent", "alert": "\(alert.id.text)", "kind": "\(alert.kind.rawValue)",
                                           "channel": "push"])
        return nil
    }

    /// 5 s, 10 s, 20 s… at most 5 minutes: a modem or a server coming back
    /// is found soon, a dead one is not hammered.
    static func backoff(after attempts: Int) -> TimeInterval {
        min(300, 5 * pow(2, Double(min(attempts, 6))))
    }

    func gaveUp(_ message: AwayMessage, _ problem: String) async -> Date? {
        try? await store.awayMessageNotSent(message.id, problem: problem, retryAt: nil)
        return nil
    }

    /// Counts this month's texts, warning admins once as the limit nears.
    func countThisMonth(timeZone: TimeZone) async {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        guard let start = calendar.dateInterval(of: .month, for: store.currentTime())?.start,
              let texts = try? await store.textsSent(since: start) else { return }
        if status.counted(texts, warningAt: sms.warningAt) {
            logger.warning("texts this month near the household's limit", metadata: [
                "event": "away.monthlyLimit", "texts": "\(texts)", "limit": "\(sms.monthlyLimit)"])
        }
    }

    /// Reads the modem's state from gammu-smsd for health, at most once a minute.
    func readModem(last: inout ContinuousClock.Instant?) async {
        guard sms.enabled, last.map({ ContinuousClock.now - $0 >= .seconds(60) }) ?? true else { return }
        last = ContinuousClock.now
        let reading: Result<ModemReading, SMSProblem>
        do throws(SMSProblem) {
            reading = .success(try await ModemMonitor.read(configPath: sms.smsdConfig))
        } catch {
            reading = .failure(error)
        }
        if status.modemRead(reading), case .failure(let problem) = reading {
            logger.warning("the modem cannot be read", metadata: ["event": "away.modem", "problem": "\(problem)"])
        }
    }

    func climbUntilCancelled(signal: WakeSignal) async {
        var failures = 0
        var modemReadAt: ContinuousClock.Instant?
        while !Task.isCancelled {
            await readModem(last: &modemReadAt)
            let now = store.currentTime()
            var next = now.addingTimeInterval(longestSleep)
            do {
                let pass = try await pass()
                failures = 0
                if let check = pass.nextCheck { next = min(next, max(check, now)) }
                await afterPass(pass)
            } catch {
                failures += 1
                logger.error("escalation pass failed", metadata: ["error": "\(error)", "attempt": "\(failures)"])
                next = now.addingTimeInterval(min(60, Double(1 << min(failures, 6))))
            }
            let wait = max(0, next.timeIntervalSince(store.currentTime()))
            // Whichever comes first: the next rung, or an alert changing.
            await withTaskGroup(of: Void.self) { group in
                group.addTask { try? await Task.sleep(for: .milliseconds(Int(wait * 1000))) }
                group.addTask { await signal.wait() }
                await group.next()
                group.cancelAll()
            }
        }
    }

    /// What can bring a rung due or take it away: an alert (an SOS raised,
    /// an answer), who is texted (care links, people, their choices, the
    /// household's contacts) and the hub's clock (kept with the household).
    static func wakes(_ entity: ChangeEntity) -> Bool {
        switch entity {
        case .alert, .careLink, .person, .awayChoice, .household: true
        case .device, .pairingCode, .note, .medication, .schedule, .dose, .alertApp, .panel, .displaySettings, .gameScore: false
        }
    }

    /// Wakes the ladder on every change `wakes` names.
    func wakeOnAlertChanges(_ signal: WakeSignal) async {
        await store.ringOnChanges(signal, subscribedTo: { Self.wakes($0.entity) }, ringing: { _ in true })
    }
}
