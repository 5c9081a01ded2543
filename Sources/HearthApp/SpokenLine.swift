import Foundation
import HearthAlerts
import HearthCore
import HearthStore

/// `hearth say "…"`: one line through the hub's speaker, as the hub says
/// alerts, for checking the speaker over SSH.
public enum SpokenLine {
    /// Says `text` and returns the voice it used: `voice` if given, else
    /// `speech.voice`, else the household's language (English when the hub
    /// has no database yet).
    public static func say(_ text: String, voice: String?, configuration: HubConfiguration) async throws -> String {
        let chosen: String
        if let voice {
            guard SpeechSettings.isVoiceName(voice) else {
                throw SpeechProblem.failed("\(voice) is not an espeak-ng voice name (such as pl, en-gb or pl+f3)")
            }
            chosen = voice
        } else {
            chosen = configuration.speech.voice(for: await householdLanguage(configuration))
        }
        let words = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !words.isEmpty, words.count <= 500 else { throw SpeechProblem.failed("say 1 to 500 characters") }
        try await Speaker(device: configuration.speech.device).say(words, voice: chosen)
        return chosen
    }

    static func householdLanguage(_ configuration: HubConfiguration) async -> HouseholdLanguage {
        let file = URL(fileURLWithPath: configuration.dataDirectory).appendingPathComponent(HearthStore.fileName)
        guard FileManager.default.fileExists(atPath: file.path), let store = try? AdminStore.open(configuration) else { return .english }
        defer { try? store.close() }
        return (try? await store.household())?.language ?? .english
    }
}
