import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
@testable import HearthQR
import HearthTestSupport
import Testing

/// Collects what the SVG tests look at while XMLParser walks the document.
final class SVGCollector: NSObject, XMLParserDelegate {
    var elements: [(name: String, attributes: [String: String])] = []
    var title = ""
    private var inTitle = false

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String] = [:]) {
        elements.append((name, attributes))
        inTitle = name == "title"
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        inTitle = false
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if inTitle { title += string }
    }
}

@Suite struct SVGQRTests {
    static func parse(_ svg: String) -> (ok: Bool, collector: SVGCollector) {
        let parser = XMLParser(data: Data(svg.utf8))
        let collector = SVGCollector()
        parser.delegate = collector
        return (parser.parse(), collector)
    }

    /// Fills a matrix from `M x y h n v1 h-n z` runs, the only commands we draw.
    static func modules(fromPath path: String, side: Int) -> [[Bool]] {
        var matrix = Array(repeating: Array(repeating: false, count: side), count: side)
        for run in path.split(separator: "M") {
            let numbers = run.split(whereSeparator: { " hvz".contains($0) }).compactMap { Int($0) }
            guard numbers.count == 5, numbers[3] == 1, numbers[4] == -numbers[2] else { continue }
            for x in numbers[0]..<(numbers[0] + numbers[2]) { matrix[numbers[1]][x] = true }
        }
        return matrix
    }

    @Test func theSVGIsWellFormedAccessibleAndFaithful() throws {
        let code = try QRCode(encoding: Drawings.pairingURL())
        let svg = SVGQR.render(code, moduleSize: 8, quietZone: 4, title: "Pairing code for Nan's tablet")
        let (ok, collector) = Self.parse(svg)
        #expect(ok)
        expectEqual(collector.elements.map(\.name), ["svg", "title", "rect", "path"])
        expectEqual(collector.title, "Pairing code for Nan's tablet")
        let side = code.size + 8
        let root = try #require(collector.elements.first?.attributes)
        expectEqual(root["viewBox"], "0 0 \(side) \(side)")
        expectEqual(root["width"], "\(side * 8)")
        expectEqual(root["role"], "img")
        expectEqual(root["shape-rendering"], "crispEdges")
        expectEqual(collector.elements[2].attributes["fill"], "#fff")
        let path = try #require(collector.elements[3].attributes["d"])
        expectEqual(Self.modules(fromPath: path, side: side), Drawings.matrix(code, quietZone: 4))
    }

    @Test func horizontalRunsAreMerged() throws {
        let code = try QRCode(encoding: "HELLO")
        // The top row starts with a finder pattern's 7 dark modules: one run.
        #expect(SVGQR.pathData(code, offset: 0).hasPrefix("M0 0h7v1h-7z"))
    }

    @Test func theTitleIsEscaped() throws {
        let svg = SVGQR.render(try QRCode(encoding: "HELLO"), title: "<script>alert(\"x\")</script> & \u{7}")
        #expect(svg.contains("<title>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; </title>"))
        #expect(!svg.contains("<script>"))
        let (ok, collector) = Self.parse(svg)
        #expect(ok)
        expectEqual(collector.title, "<script>alert(\"x\")</script> & ")
    }
}
