/// How a person's screens look and sound: text size, theme, language and
/// how fast things are read aloud. Kept on the hub per person, not per
/// browser, so a caregiver can set a senior's large text from her own phone
/// and every device of the senior's follows.
public struct DisplaySettings: Sendable, Hashable, Codable {
    public enum TextSize: String, Sendable, Hashable, Codable, CaseIterable {
        case normal, large
        case extraLarge = "x-large"
    }

    /// `system` follows the device's light or dark setting.
    public enum Theme: String, Sendable, Hashable, Codable, CaseIterable {
        case system, light, dark
    }

    /// Slower speech is easier to follow; the page turns the word into a rate.
    public enum SpeechRate: String, Sendable, Hashable, Codable, CaseIterable {
        case slower, slow, normal, fast
    }

    public var textSize: TextSize
    public var theme: Theme
    public var language: HouseholdLanguage
    public var speechRate: SpeechRate

    public init(textSize: TextSize, theme: Theme, language: HouseholdLanguage, speechRate: SpeechRate) {
        self.textSize = textSize
        self.theme = theme
        self.language = language
        self.speechRate = speechRate
    }

    /// Before anyone chose: the household's language, and for a senior large
    /// text read a little slower.
    public static func standard(for role: Person.Role, language: HouseholdLanguage) -> DisplaySettings {
        role == .senior
            ? DisplaySettings(textSize: .large, theme: .system, language: language, speechRate: .slow)
            : DisplaySettings(textSize: .normal, theme: .system, language: language, speechRate: .normal)
    }

    /// Settings as a client sent them (every one required), or 422 naming
    /// the first one outside its list.
    public static func validated(textSize: String?, theme: String?, language: String?, speechRate: String?) throws(HearthError) -> DisplaySettings {
        DisplaySettings(
            textSize: try choice(textSize, "textSize"),
            theme: try choice(theme, "theme"),
            language: try choice(language, "language"),
            speechRate: try choice(speechRate, "speechRate"))
    }

    private static func choice<Value: RawRepresentable & CaseIterable>(_ raw: String?, _ field: String) throws(HearthError) -> Value
    where Value.RawValue == String {
        guard let raw, let value = Value(rawValue: raw) else {
            throw .invalid(fields: [field: "must be one of \(Value.allCases.map(\.rawValue).joined(separator: ", "))"])
        }
        return value
    }
}
