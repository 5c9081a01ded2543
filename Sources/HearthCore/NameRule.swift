import Foundation

/// The one rule for names people type (a household, a person, a device):
/// trimmed, not empty, not too long, no control characters.
enum NameRule {
    static func validated(_ raw: String, field: String, maximumLength: Int) throws(HearthError) -> String {
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if name.isEmpty {
            throw .invalid(fields: [field: "must not be empty"])
        }
        // Counted as the API document's maxLength counts: code points, as
        // sent. Counting what the eye sees let a name of 60 letters carry
        // hundreds of combining marks.
        if raw.unicodeScalars.count > maximumLength {
            throw .invalid(fields: [field: "must be at most \(maximumLength) characters"])
        }
        if name.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) }) {
            throw .invalid(fields: [field: "must not contain control characters"])
        }
        return name
    }
}
