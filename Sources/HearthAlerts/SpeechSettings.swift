import Foundation
import HearthCore

/// How the hub speaks (`speech.*` in hearth.yaml): off unless a household
/// with a speaker turns it on.
public struct SpeechSettings: Sendable, Equatable {
    public var enabled: Bool
    /// An espeak-ng voice ("pl", "en-gb", "pl+f3"); nil speaks the
    /// household's language with espeak-ng's voice for it.
    public var voice: String?
    /// When due and missed doses are not said aloud; an SOS and its
    /// answer always are.
    public var quietHours: QuietHours?
    /// The ALSA device to play on.
    public var device: String

    public init(enabled: Bool = false, voice: String? = nil, quietHours: QuietHours? = nil, device: String = "default") {
        self.enabled = enabled
        self.voice = voice
        self.quietHours = quietHours
        self.device = device
    }

    /// The voice for the household's language unless one was chosen.
    public func voice(for language: HouseholdLanguage) -> String { voice ?? language.rawValue }

    /// espeak-ng's voice names: letters, digits, `-`, `+` and `_`, nothing a
    /// command line could read as an option.
    public static func isVoiceName(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 40 && text.first?.isLetter == true
            && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-+_".contains($0)) }
    }
}
