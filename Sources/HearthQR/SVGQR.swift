/// Draws a QR code as SVG for a web page (an admin's Household page shows a
/// pairing code for a caregiver's phone to scan).
public enum SVGQR {
    public static func render(_ code: QRCode, moduleSize: Int = 8, quietZone: Int = 4, title: String) -> String {
        let side = code.size + 2 * quietZone
        var path = ""
        for y in 0..<code.size {
            var x = 0
            while x < code.size {
                guard code.isDark(x: x, y: y) else { x += 1; continue }
                // One rectangle per horizontal run keeps the path short.
                var run = 1
                while code.isDark(x: x + run, y: y) { run += 1 }
                path += "M\(x + quietZone) \(y + quietZone)h\(run)v1h-\(run)z"
                x += run
            }
        }
        let pixels = side * moduleSize
        return """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(side) \(side)" width="\(pixels)" height="\(pixels)" \
            role="img" shape-rendering="crispEdges"><title>\(escaped(title))</title>\
            <rect width="\(side)" height="\(side)" fill="#fff"/><path d="\(path)" fill="#000"/></svg>
            """
    }

    static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
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
