/// Draws a QR code as a standalone SVG for a web page: an admin's or a
/// senior's Household page shows a pairing code for a caregiver's phone.
public enum SVGQR {
    /// One `viewBox` unit per module, scaled to `moduleSize` pixels, with a
    /// white background (the page may be dark) and every dark module in one
    /// `<path>`. `title` is read by screen readers (`role="img"`).
    public static func render(_ code: QRCode, moduleSize: Int = 8, quietZone: Int = 4, title: String) -> String {
        let quiet = max(0, quietZone)
        let side = code.size + 2 * quiet
        let pixels = side * max(1, moduleSize)
        return """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(side) \(side)" width="\(pixels)" height="\(pixels)" \
            role="img" shape-rendering="crispEdges"><title>\(escaped(title))</title>\
            <rect width="\(side)" height="\(side)" fill="#fff"/>\
            <path fill="#000" d="\(pathData(code, offset: quiet))"/></svg>

            """
    }

    /// One closed rectangle per horizontal run of dark modules: far shorter
    /// than one per module, and crispEdges keeps neighbouring runs seamless.
    static func pathData(_ code: QRCode, offset: Int) -> String {
        var path = ""
        for y in 0..<code.size {
            var x = 0
            while x < code.size {
                guard code.isDark(x: x, y: y) else { x += 1; continue }
                var run = 1
                while code.isDark(x: x + run, y: y) { run += 1 }
                path += "M\(x + offset) \(y + offset)h\(run)v1h-\(run)z"
                x += run
            }
        }
        return path
    }

    /// Text made safe for XML character data and attribute values. Control
    /// characters other than whitespace are not allowed in XML even escaped,
    /// so they are dropped.
    static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            if character.unicodeScalars.contains(where: { $0.value < 0x20 && !"\t\n\r".unicodeScalars.contains($0) }) {
                continue
            }
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            default: result.append(character)
            }
        }
        return result
    }
}
