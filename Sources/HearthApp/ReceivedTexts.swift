import Foundation
import HearthAlerts
import HearthCore
import HearthStore

/// `hearth sms received`: gammu-smsd runs it (`RunOnReceive`) for texts that
/// came to the hub's modem, naming them in its environment (`SMS_MESSAGES`,
/// `SMS_1_NUMBER`, `SMS_1_TEXT`, …). Each reply to a text the hub sent
/// answers its alert through the store, as that caregiver, as her
/// notification's button would; the running hub publishes it within about
/// a second (`ExternalChangesService`), so the senior's screens and the
/// hub's voice say who is on the way. Nothing secret is needed on the
/// command line: the database is the hub's own, which gammu-smsd (root, as
/// Debian runs it) opens as `sudo hearth pair` does.
public enum ReceivedTexts {
    public struct Text: Sendable, Equatable {
        public var number: String
        public var text: String
    }

    /// What stops a test text, in one line.
    public struct Problem: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// The most gammu hands over at once that are read; more is a flood.
    static let mostAtOnce = 50

    /// The texts gammu-smsd named in `environment`, in its order.
    public static func texts(in environment: [String: String]) -> [Text] {
        guard let count = environment["SMS_MESSAGES"].flatMap(Int.init), count > 0 else { return [] }
        return (1...min(count, mostAtOnce)).compactMap { index in
            guard let number = environment["SMS_\(index)_NUMBER"], !number.isEmpty else { return nil }
            return Text(number: String(number.prefix(40)), text: String((environment["SMS_\(index)_TEXT"] ?? "").prefix(1000)))
        }
    }

    /// Takes each text; returns one line for each, saying what became of it
    /// without its words (they may be anything anyone sent).
    public static func take(_ texts: [Text], store: HearthStore) async throws -> String {
        var lines: [String] = []
        for text in texts {
            let reply = TextReply(text.text).map { (onMyWay: $0.answer == .respond, code: $0.code) }
            let outcome = try await store.takeTextReply(from: text.number, reply: reply, at: store.currentTime())
            let from = "text from \(PhoneNumber.dialled(text.number))"
            switch outcome {
            case .answered(_, let name, let onMyWay):
                lines.append("\(from): \(name) answered the alert (\(onMyWay ? "on the way" : "seen"))")
            case .notAReply: lines.append("\(from): not a reply to an alert, ignored")
            case .unknownCode: lines.append("\(from): no open alert with that code for that number, ignored")
            case .tooMany: lines.append("\(from): too many texts, ignored")
            }
        }
        return lines.isEmpty ? "no texts named in the environment (gammu-smsd sets SMS_MESSAGES)\n" : lines.joined(separator: "\n") + "\n"
    }

    /// `hearth sms test NUMBER`: a text through gammu-smsd as alerts go, in
    /// the household's language.
    public static func test(to number: String, configuration: HubConfiguration, store: HearthStore?) async throws -> String {
        guard let dialable = SMSGateway.dialable(number) else {
            throw Problem("not a phone number: \(number.prefix(30)) (digits, optionally starting with +)")
        }
        let household = try await store?.household()
        let polish = household?.language == .polish
        let words = polish ? "Hearth (\(household?.name ?? "dom")): próba SMS. Ten numer dostanie SOS, gdy nie ma cię w domu."
                           : "Hearth (\(household?.name ?? "home")): a test text. This number gets an SOS when you are away."
        let gateway = SMSGateway(configPath: configuration.sms.smsdConfig)
        do {
            let id = try await gateway.send(TextMessage(words), to: dialable)
            let note = configuration.sms.enabled ? "" : "\nsms.enabled is false: alerts are not texted until it is true in hearth.yaml"
            return "handed to gammu-smsd (message \(id)) for \(dialable); it sends it when the modem can\(note)\n"
        } catch {
            throw Problem("gammu-smsd did not take it: \(error)")
        }
    }
}
