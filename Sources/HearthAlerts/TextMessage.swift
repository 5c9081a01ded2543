import Foundation
import HearthCore

/// A text message (SMS) as the network carries it: GSM's 7-bit alphabet
/// when every character is in it (160 characters in one part, 153 in each
/// part of a longer one), else UCS-2 (70, and 67 a part) — any Polish
/// letter (ą, ę, ł, ó, ś, ż …) makes a text UCS-2. Each part costs the
/// household a text, so the wording keeps an SOS within one part where it
/// can; a longer one goes as one concatenated message.
public struct TextMessage: Hashable, Sendable {
    public enum Coding: String, Sendable {
        case gsm7, ucs2
    }

    public let text: String

    public init(_ text: String) {
        self.text = text
    }

    public var coding: Coding {
        text.allSatisfy { Self.gsm7Basic.contains($0) || Self.gsm7Extension.contains($0) } ? .gsm7 : .ucs2
    }

    /// How long it is in the units of its coding: a GSM extension character
    /// (€, [, ] …) takes two septets; a character outside the Basic
    /// Multilingual Plane (an emoji) two UCS-2 units.
    public var length: Int {
        switch coding {
        case .gsm7: text.reduce(0) { $0 + (Self.gsm7Extension.contains($1) ? 2 : 1) }
        case .ucs2: text.utf16.count
        }
    }

    /// How many parts the network sends it in.
    public var parts: Int {
        let (single, each) = coding == .gsm7 ? (160, 153) : (70, 67)
        return length <= single ? 1 : (length + each - 1) / each
    }

    // GSM 03.38's basic character set, and the characters of its extension table.
    static let gsm7Basic = Set("@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà")
    static let gsm7Extension = Set("^{}\\[~]|€\u{0C}")
}

/// An answer by text: "1 4821" (on my way) or "2 4821" (seen), the code
/// being the one the hub's text carried for that alert and that person.
/// Anything else is no answer, and never acts.
public struct TextReply: Hashable, Sendable {
    public enum Answer: Sendable, Hashable {
        /// "I'm on my way".
        case respond
        /// "Seen" (OK).
        case acknowledge
    }

    public let answer: Answer
    public let code: String

    public init(answer: Answer, code: String) {
        self.answer = answer
        self.code = code
    }

    /// Reads a reply as a person types it on a phone: the digit 1 or 2, then
    /// the code (4 to 6 digits), with spaces, a dash or a dot between and
    /// around them; "1 4821 jadę" too (words after the code are hers).
    public init?(_ text: String) {
        let scalars = Array(text.trimmingCharacters(in: .whitespacesAndNewlines).unicodeScalars)
        guard let first = scalars.first, first == "1" || first == "2" else { return nil }
        var index = 1
        let separators: Set<Unicode.Scalar> = [" ", "-", ".", ",", ":", "\u{00A0}"]
        while index < scalars.count, separators.contains(scalars[index]) { index += 1 }
        guard index > 1 else { return nil }  // "14821" is no "1" and a code
        let start = index
        while index < scalars.count, ("0"..."9").contains(scalars[index]) { index += 1 }
        let digits = index - start
        guard (4...6).contains(digits) else { return nil }
        // The code ends there: a seventh digit or a letter stuck to it is no code.
        if index < scalars.count, !separators.contains(scalars[index]), !CharacterSet.whitespacesAndNewlines.contains(scalars[index]) {
            return nil
        }
        answer = first == "1" ? .respond : .acknowledge
        code = String(String.UnicodeScalarView(scalars[start..<index]))
    }
}
