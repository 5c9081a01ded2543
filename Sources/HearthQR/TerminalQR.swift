/// Draws a QR code for a terminal, such as the SSH session running `hearth pair`.
public enum TerminalQR {
    /// Black on white, set explicitly on every line: a phone camera needs
    /// dark modules on a light background, and a terminal with a dark theme
    /// would otherwise draw it inverted. 256-colour 16 and 231 are pure black
    /// and white, unlike the 16-colour palette a theme may tint.
    static let blackOnWhite = "\u{1B}[38;5;16;48;5;231m"
    static let reset = "\u{1B}[0m"

    /// Two module rows per text line with Unicode half blocks, so a version 4
    /// code with its quiet zone is 37 columns by 19 lines.
    public static func halfBlocks(_ code: QRCode, quietZone: Int = 2) -> String {
        let range = -quietZone..<(code.size + quietZone)
        var lines: [String] = []
        for top in stride(from: range.lowerBound, to: range.upperBound, by: 2) {
            var line = blackOnWhite
            for x in range {
                let upper = code.isDark(x: x, y: top)
                let lower = top + 1 < range.upperBound && code.isDark(x: x, y: top + 1)
                line += upper ? (lower ? "█" : "▀") : (lower ? "▄" : " ")
            }
            lines.append(line + reset)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A plain fallback (`--ascii`) with no escape codes: `##` for a dark
    /// module, two spaces for a light one, so modules come out square.
    public static func ascii(_ code: QRCode, quietZone: Int = 2) -> String {
        let range = -quietZone..<(code.size + quietZone)
        return range.map { y in
            range.map { x in code.isDark(x: x, y: y) ? "##" : "  " }.joined()
        }.joined(separator: "\n") + "\n"
    }
}
