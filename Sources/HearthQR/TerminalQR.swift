/// Draws a QR code for a terminal, such as the SSH session running `hearth pair`.
public enum TerminalQR {
    /// Black text on a white background, set at the start of every line.
    ///
    /// A phone camera needs dark modules on a light background, and a terminal
    /// with a dark theme would otherwise draw the code inverted, so the colours
    /// are explicit rather than the theme's defaults. We use the 256-colour
    /// cube's 16 (#000000) and 231 (#ffffff) rather than plain 30/47: themes
    /// recolour the 16 basic colours (Solarized's "black" is dark teal, many
    /// "white"s are grey), but leave the cube alone. Every terminal an admin
    /// is likely to SSH from understands it; `ascii(_:)` is the fallback.
    public static let blackOnWhite = "\u{1B}[38;5;16;48;5;231m"
    /// Back to the terminal's own colours, at the end of every line, so a
    /// wrapped or interrupted line never leaves the prompt black on white.
    public static let reset = "\u{1B}[0m"

    /// Two module rows per text line with Unicode half blocks, since a
    /// terminal cell is about twice as tall as it is wide: the modules come
    /// out square and a version 4 code with a quiet zone of 2 is 37 columns
    /// by 19 lines, well inside 80×24.
    ///
    /// Each cell shows its top module in the upper half and its bottom module
    /// in the lower half, drawn in the (black) foreground: both dark "█", top
    /// only "▀", bottom only "▄", neither a (white) space. Below an odd last
    /// row, the bottom halves are quiet zone, so light.
    public static func halfBlocks(_ code: QRCode, quietZone: Int = 2) -> String {
        let range = span(code, quietZone: quietZone)
        var text = ""
        for top in stride(from: range.lowerBound, to: range.upperBound, by: 2) {
            text += blackOnWhite
            for x in range {
                // Outside the symbol isDark is false, so the quiet zone is white.
                switch (code.isDark(x: x, y: top), code.isDark(x: x, y: top + 1)) {
                case (true, true): text += "█"
                case (true, false): text += "▀"
                case (false, true): text += "▄"
                case (false, false): text += " "
                }
            }
            text += reset + "\n"
        }
        return text
    }

    /// A plain fallback (`hearth pair --ascii`) for terminals without colour or
    /// block glyphs: no escape codes, one line per module row, `##` for a dark
    /// module and two spaces for a light one so the modules come out square.
    /// It follows the terminal's theme, so on a dark one the code is inverted;
    /// most phone scanners read that too.
    public static func ascii(_ code: QRCode, quietZone: Int = 2) -> String {
        let range = span(code, quietZone: quietZone)
        var text = ""
        for y in range {
            for x in range { text += code.isDark(x: x, y: y) ? "##" : "  " }
            text += "\n"
        }
        return text
    }

    /// Module coordinates to draw, quiet zone included (a negative one is none).
    static func span(_ code: QRCode, quietZone: Int) -> Range<Int> {
        let quiet = max(0, quietZone)
        return -quiet..<(code.size + quiet)
    }
}
