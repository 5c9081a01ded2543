import Foundation
import HearthCore
import HearthStore
import Logging
import ServiceLifecycle

/// The hub says alerts aloud, for a senior who is not holding a device: a
/// due dose by name ("Zosia, it is time for Metformin, one tablet."), again
/// each time the reminder rules repeat it; a missed dose; an SOS and its
/// answer ("Anna is on the way."). Quiet hours hush the doses, never an
/// SOS. Lines are said one at a time (`WaitingLines`): while the speaker is
/// busy at most a few wait, so a backlog never talks for minutes, and an
/// SOS is never among those dropped.
public struct HubVoice: Service {
    let store: any SpokenAlertSource
    let settings: SpeechSettings
    let speaker: Speaker
    let board: DeliveryBoard
    let status: VoiceStatus
    let logger: Logger
    let waiting = WaitingLines()

    public init(store: any SpokenAlertSource, settings: SpeechSettings, board: DeliveryBoard, status: VoiceStatus, logger: Logger) {
        self.store = store
        self.settings = settings
        self.speaker = Speaker(device: settings.device)
        self.board = board
        self.status = status
        self.logger = logger
    }

    /// One thing to say, and the alert it says.
    struct Line: Sendable {
        var text: String
        var voice: String
        var alertId: UUID?
        var messageId: String?
        /// An SOS or its answer: never dropped for a backlog.
        var isUrgent = false
        /// Words a minute: the senior's own speaking rate for what is said about her.
        var rate = Speaker.normalRate
    }

    public func run() async throws {
        if let missing = ["espeak-ng", "aplay"].first(where: { speaker.program($0) == nil }),
           status.failed(SpeechProblem.missing(program: missing)) {
            logger.warning("the hub cannot speak", metadata: ["event": "voice.problem", "problem": "\(SpeechProblem.missing(program: missing))"])
        }
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask {
                while let line = await waiting.next() { await say(line) }
            }
            await listen()
            waiting.finish()
        }
    }

    /// Queues a test line (the Test button of a senior's page), recorded
    /// under `messageId` once it has been said.
    public func sayTest(_ text: String, to person: UUID, messageId: String) async {
        guard settings.enabled else { return }
        let language = (try? await store.household())?.language ?? .english
        waiting.add(Line(text: text, voice: settings.voice(for: language), alertId: nil, messageId: messageId,
                         rate: await rate(for: person)))
    }

    /// The speaking rate the senior chose for her screens (slow for a senior
    /// until someone chooses), so the hub reads to her as her tablet does.
    func rate(for person: UUID?) async -> Int {
        guard let person, let chosen = try? await store.displaySettings(of: person, visibleTo: .hubTerminal) else {
            return Speaker.normalRate
        }
        return Speaker.wordsPerMinute(chosen.settings.speechRate)
    }

    func say(_ line: Line) async {
        do {
            try await speaker.say(line.text, voice: line.voice, rate: line.rate)
            let now = store.currentTime()
            status.spoke(at: now)
            board.record(.init(channel: .voice, recipient: "speaker", recipientName: "speaker", messageId: line.messageId ?? line.alertId?.text ?? "", alertId: line.alertId, at: now))
        } catch {
            if status.failed(error) {
                logger.warning("the hub cannot speak", metadata: ["event": "voice.problem", "problem": "\(error)"])
            }
        }
    }

    /// Reads alert changes from now on and queues what is to be said.
    func listen() async {
        var heard = SpokenAlerts()
        var cursor: Int64? = nil
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            do {
                let start: Int64 = if let cursor { cursor } else { try await store.latestSeq() }
                let subscription = try await store.subscribe(after: start, bufferLimit: ChangeHub.defaultBufferLimit) {
                    $0.entity == .alert || $0.entity == .household
                }
                var household = try await store.household()
                for try await change in subscription.cancelOnGracefulShutdown() {
                    cursor = change.seq
                    if change.entity == .household { household = try await store.household(); continue }
                    guard let alert = CareAlert(json: change.payload), heard.isNews(alert) else { continue }
                    let wording = AlertWording(household)
                    guard let text = wording.spoken(alert), !isHushed(alert, wording: wording) else { continue }
                    waiting.add(Line(text: text, voice: settings.voice(for: wording.language), alertId: alert.id,
                                     isUrgent: alert.kind == .sos, rate: await rate(for: alert.personId)))
                }
                return
            } catch {
                logger.warning("voice listener restarting", metadata: ["error": "\(error)"])
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }

    /// Quiet hours hush doses; an SOS and its answer are always said.
    func isHushed(_ alert: CareAlert, wording: AlertWording) -> Bool {
        guard alert.kind != .sos, let quiet = settings.quietHours else { return false }
        return quiet.contains(store.currentTime(), in: wording.timeZone)
    }
}

/// What was already said of each open alert, so an update says something
/// only when it is news: a reminder repeated, an SOS answered or cancelled.
struct SpokenAlerts {
    private var said: [UUID: (repeats: Int, answered: Bool)] = [:]

    mutating func isNews(_ alert: CareAlert) -> Bool {
        guard alert.isOpen else {
            // A call for help that was heard and then cancelled by its
            // senior: the household hears that all is well, once.
            let wasHeard = said.removeValue(forKey: alert.id) != nil
            return wasHeard && alert.isCancelledByItsSenior
        }
        let now = (repeats: alert.repeats, answered: alert.respondedAt != nil)
        defer { said[alert.id] = now }
        guard let before = said[alert.id] else { return true }
        return now.repeats > before.repeats || (now.answered && !before.answered)
    }
}

/// How the hub's voice is doing, for health: a problem is reported once
/// (logged the first time), and clears when a line is said again.
public final class VoiceStatus: Sendable {
    private struct State {
        var problem: String?
        var lastSpokenAt: Date?
    }
    private let state = Locked(State())
    public let enabled: Bool

    public init(enabled: Bool) {
        self.enabled = enabled
    }

    func spoke(at date: Date) {
        state.withLock {
            $0.problem = nil
            $0.lastSpokenAt = date
        }
    }

    /// Records a failure; true when it is new (to be logged).
    func failed(_ error: any Error) -> Bool {
        let text = "\(error)"
        return state.withLock { state in
            defer { state.problem = text }
            return state.problem != text
        }
    }

    public var problem: String? { state.withLock { $0.problem } }
    public var lastSpokenAt: Date? { state.withLock { $0.lastSpokenAt } }
}
