import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
@testable import HearthQR
import Testing

@Suite struct QRCodeTests {
    /// The longest pairing URL a household is likely to see: a full IPv4
    /// address, a five-digit port and the 22-character secret.
    static let pairingURL = "http://192.168.100.200:65535/pair#" + String(repeating: "aZ0-_", count: 4) + "xy"

    /// Reads a half-block drawing back into modules, as a camera (or the
    /// end-to-end test) would: two module rows per text line.
    static func modules(fromHalfBlocks text: String) -> [[Bool]] {
        var rows: [[Bool]] = []
        for line in text.split(separator: "\n") {
            let plain = line.replacingOccurrences(of: TerminalQR.blackOnWhite, with: "")
                .replacingOccurrences(of: TerminalQR.reset, with: "")
            rows.append(plain.map { $0 == "█" || $0 == "▀" })
            rows.append(plain.map { $0 == "█" || $0 == "▄" })
        }
        return rows
    }

    static func modules(fromASCII text: String) -> [[Bool]] {
        text.split(separator: "\n").map { line in
            stride(from: 0, to: line.count, by: 2).map { line[line.index(line.startIndex, offsetBy: $0)] == "#" }
        }
    }

    static func matrix(_ code: QRCode, quietZone: Int) -> [[Bool]] {
        let range = -quietZone..<(code.size + quietZone)
        return range.map { y in range.map { x in code.isDark(x: x, y: y) } }
    }

    @Test func aShortTextIsAVersionOneCode() throws {
        #expect(try QRCode(encoding: "HELLO").size == 21)
    }

    @Test func thePairingURLFitsAnEightyByTwentyFourTerminal() throws {
        let code = try QRCode(encoding: Self.pairingURL)
        #expect(code.size <= 33, "version 4 or below")
        let lines = TerminalQR.halfBlocks(code).split(separator: "\n")
        #expect(lines.count <= 19)
        for line in lines {
            let visible = line.replacingOccurrences(of: TerminalQR.blackOnWhite, with: "").replacingOccurrences(of: TerminalQR.reset, with: "")
            #expect(visible.count <= 37)
        }
        #expect(TerminalQR.ascii(code).split(separator: "\n").allSatisfy { $0.count <= 80 })
    }

    @Test func theThreeFinderPatternsAreInTheCorners() throws {
        let code = try QRCode(encoding: Self.pairingURL)
        for (originX, originY) in [(0, 0), (code.size - 7, 0), (0, code.size - 7)] {
            for y in 0..<7 {
                for x in 0..<7 {
                    let ring = x == 0 || y == 0 || x == 6 || y == 6
                    let centre = (2...4).contains(x) && (2...4).contains(y)
                    #expect(code.isDark(x: originX + x, y: originY + y) == (ring || centre), "finder at \(originX),\(originY)")
                }
            }
        }
    }

    @Test func theHalfBlockDrawingIsFaithful() throws {
        let code = try QRCode(encoding: Self.pairingURL)
        var drawn = Self.modules(fromHalfBlocks: TerminalQR.halfBlocks(code, quietZone: 2))
        let expected = Self.matrix(code, quietZone: 2)
        // An odd number of rows leaves a light half line at the bottom.
        if drawn.count == expected.count + 1 {
            #expect(drawn.removeLast().allSatisfy { !$0 })
        }
        #expect(drawn == expected)
    }

    @Test func everyLineIsBlackOnWhiteWhateverTheTheme() throws {
        let drawing = TerminalQR.halfBlocks(try QRCode(encoding: "HELLO"))
        for line in drawing.split(separator: "\n") {
            #expect(line.hasPrefix(TerminalQR.blackOnWhite))
            #expect(line.hasSuffix(TerminalQR.reset))
        }
    }

    @Test func theASCIIDrawingIsFaithfulAndPlain() throws {
        let code = try QRCode(encoding: Self.pairingURL)
        let drawing = TerminalQR.ascii(code, quietZone: 2)
        #expect(!drawing.contains("\u{1B}"))
        #expect(Self.modules(fromASCII: drawing) == Self.matrix(code, quietZone: 2))
    }

    @Test func theSVGIsWellFormedAndAccessible() throws {
        let code = try QRCode(encoding: Self.pairingURL)
        let svg = SVGQR.render(code, title: "Pair <script>alert(1)</script> & go")
        #expect(svg.contains("<title>Pair &lt;script&gt;alert(1)&lt;/script&gt; &amp; go</title>"))
        #expect(svg.contains(#"role="img""#))
        let parser = XMLParser(data: Data(svg.utf8))
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        // Every dark module is inside some run of the path.
        let runs = svg.components(separatedBy: "h").count - 1
        #expect(runs > 0)
    }

    @Test func textTooLongForAQRCodeIsRefused() {
        #expect(throws: QRCode.EncodingError.self) { try QRCode(encoding: String(repeating: "x", count: 8000)) }
    }
}
