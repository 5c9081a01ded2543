@testable import HearthQR
import HearthTestSupport
import Testing

@Suite struct QRCodeTests {
    @Test func aShortTextIsAVersionOneCode() throws {
        let code = try QRCode(encoding: "HELLO")
        expectEqual(code.size, 21)
        expectEqual(code.version, 1)
    }

    @Test func todaysPairingURLIsVersionFourOrSmaller() throws {
        for _ in 0..<50 {
            let code = try QRCode(encoding: Drawings.pairingURL())
            #expect(code.version <= 4)
            #expect(code.size <= 33)
        }
    }

    @Test func aURLWithA256BitSecretFitsThirtySevenModules() throws {
        for _ in 0..<50 {
            let url = Drawings.pairingURL(secretLength: 43, prefix: "http://192.168.1.20:8080/pair#")
            expectEqual(url.count, 73)
            #expect(try QRCode(encoding: url).size <= 37)
        }
    }

    @Test func moreErrorCorrectionNeverShrinksTheCode() throws {
        let url = Drawings.pairingURL()
        let sizes = try ErrorCorrection.allCases.map { try QRCode(encoding: url, errorCorrection: $0).size }
        expectEqual(sizes, sizes.sorted())
    }

    @Test func theThreeFinderPatternsAreInTheCorners() throws {
        let code = try QRCode(encoding: Drawings.pairingURL())
        for (originX, originY) in [(0, 0), (code.size - 7, 0), (0, code.size - 7)] {
            for y in 0..<7 {
                for x in 0..<7 {
                    let ring = x == 0 || y == 0 || x == 6 || y == 6
                    let centre = (2...4).contains(x) && (2...4).contains(y)
                    expectEqual(code.isDark(x: originX + x, y: originY + y), (ring || centre), "finder at \(originX),\(originY)")
                }
            }
        }
        // The fourth corner has no finder pattern: that is how a reader finds "up".
        #expect(!(0..<7).allSatisfy { code.isDark(x: code.size - 1 - $0, y: code.size - 1) })
    }

    @Test func outsideTheSymbolIsLight() throws {
        let code = try QRCode(encoding: "HELLO")
        #expect(!code.isDark(x: -1, y: 0))
        #expect(!code.isDark(x: 0, y: code.size))
    }

    @Test func textTooLongForAQRCodeIsRefused() {
        #expect(throws: QREncodingError.tooLong(bytes: 8000)) {
            try QRCode(encoding: String(repeating: "x", count: 8000))
        }
        #expect(QREncodingError.tooLong(bytes: 8000).description.hasPrefix("text too long for a QR code"))
    }

    @Test func emptyTextOrANULIsRefused() {
        #expect(throws: QREncodingError.empty) { try QRCode(encoding: "") }
        #expect(throws: QREncodingError.containsNUL) { try QRCode(encoding: "http://a/\u{0}b") }
    }
}
