@testable import HearthQR

/// Reads drawings back into module matrices the way the end-to-end test (or
/// a camera) does, so a test can prove a drawing is faithful.
enum Drawings {
    /// A pairing URL as `hearth pair` makes it today: a full IPv4 address, a
    /// five-digit port and the 16-byte secret in base64url (22 characters).
    static func pairingURL(secretLength: Int = 22, prefix: String = "http://192.168.100.200:65535/pair#") -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        var generator = SystemRandomNumberGenerator()
        return prefix + String((0..<secretLength).map { _ in alphabet.randomElement(using: &generator) ?? "A" })
    }

    /// The code's modules with a light quiet zone around them.
    static func matrix(_ code: QRCode, quietZone: Int) -> [[Bool]] {
        let range = -quietZone..<(code.size + quietZone)
        return range.map { y in range.map { x in code.isDark(x: x, y: y) } }
    }

    /// The text without ANSI SGR sequences (`ESC [ … m`), whatever they are.
    static func strippingANSI(_ text: Substring) -> String {
        var plain = ""
        var inEscape = false
        for character in text {
            if inEscape {
                if character == "m" { inEscape = false }
            } else if character == "\u{1B}" {
                inEscape = true
            } else {
                plain.append(character)
            }
        }
        return plain
    }

    /// Visible lines of a terminal drawing.
    static func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(strippingANSI)
    }

    /// Two module rows per line: a glyph's upper and lower halves.
    static func modules(fromHalfBlocks text: String) -> [[Bool]] {
        lines(text).flatMap { line in
            [line.map { $0 == "█" || $0 == "▀" }, line.map { $0 == "█" || $0 == "▄" }]
        }
    }

    /// One module row per line, two characters per module.
    static func modules(fromASCII text: String) -> [[Bool]] {
        lines(text).map { line in
            let characters = Array(line)
            return stride(from: 0, to: characters.count, by: 2).map { characters[$0] == "#" }
        }
    }
}
