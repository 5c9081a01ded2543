import Foundation

/// The rule for a phone number people type: an optional leading `+`, then
/// digits with the spaces, dashes, dots and brackets people write between
/// them; 3 to 15 digits (15 is the most any country's numbers have, ITU
/// E.164; 3 lets an emergency number or a house extension through).
public enum PhoneNumber {
    public static let maximumLength = 30

    /// The number as written, trimmed; nil for an empty one (no number).
    public static func validated(_ raw: String, field: String = "phone") throws(HearthError) -> String? {
        let number = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !number.isEmpty else { return nil }
        let invalid = HearthError.invalid(fields: [field: "must be a phone number: digits, optionally starting with +"])
        guard number.count <= maximumLength else { throw invalid }
        var digits = 0
        for (index, character) in number.enumerated() {
            if character.isASCII, character.isNumber {
                digits += 1
            } else if character == "+" {
                guard index == 0 else { throw invalid }
            } else if !" -.()".contains(character) {
                throw invalid
            }
        }
        guard (3...15).contains(digits) else { throw invalid }
        return number
    }

    /// What a `tel:` link dials: the digits, with the leading `+` if any.
    public static func dialled(_ number: String) -> String {
        (number.hasPrefix("+") ? "+" : "") + number.filter { $0.isASCII && $0.isNumber }
    }
}

extension PhoneNumber {
    /// Whether two written numbers reach the same phone: the same digits,
    /// or the same last nine when one is written with its country's prefix
    /// and the other without ("+48 600 100 200", "600-100-200"), as a modem
    /// reports a sender in full however the household wrote her number.
    public static func sameLine(_ first: String, _ second: String) -> Bool {
        let (a, b) = (dialled(first).filter(\.isNumber), dialled(second).filter(\.isNumber))
        guard a.count >= 3, b.count >= 3 else { return false }
        if a == b { return true }
        return a.count >= 9 && b.count >= 9 && a.suffix(9) == b.suffix(9)
    }
}
