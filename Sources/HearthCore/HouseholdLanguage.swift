/// The language the hub itself speaks to the household: the words of alerts
/// on phones and of its voice. Each browser still picks its own language for
/// the pages it shows.
public enum HouseholdLanguage: String, Sendable, Hashable, Codable, CaseIterable {
    case english = "en"
    case polish = "pl"

    public static func validated(_ raw: String) throws(HearthError) -> HouseholdLanguage {
        guard let language = HouseholdLanguage(rawValue: raw) else {
            throw .invalid(fields: ["language": "must be one of \(allCases.map(\.rawValue).joined(separator: ", "))"])
        }
        return language
    }
}
