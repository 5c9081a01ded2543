import Foundation
@testable import HearthQR
import HearthTestSupport
import Testing

@Suite struct TerminalQRTests {
    @Test func theHalfBlockDrawingIsFaithful() throws {
        for url in ["HELLO", Drawings.pairingURL()] {
            let code = try QRCode(encoding: url)
            var drawn = Drawings.modules(fromHalfBlocks: TerminalQR.halfBlocks(code, quietZone: 2))
            let expected = Drawings.matrix(code, quietZone: 2)
            // An odd number of rows leaves a light half line at the bottom.
            expectEqual(drawn.count, expected.count + 1)
            #expect(drawn.removeLast().allSatisfy { !$0 })
            expectEqual(drawn, expected)
        }
    }

    @Test func thePairingCodeIsThirtySevenColumnsByNineteenLines() throws {
        let code = try QRCode(encoding: Drawings.pairingURL())
        expectEqual(code.size, 33, "version 4 at level M")
        let lines = Drawings.lines(TerminalQR.halfBlocks(code))
        expectEqual(lines.count, 19)
        #expect(lines.allSatisfy { $0.count == 37 })
    }

    @Test func aURLWithA256BitSecretStillFitsEightyByTwentyFour() throws {
        let url = Drawings.pairingURL(secretLength: 43, prefix: "http://192.168.1.20:8080/pair#")
        let lines = Drawings.lines(TerminalQR.halfBlocks(try QRCode(encoding: url)))
        #expect(lines.count <= 24)
        #expect(lines.allSatisfy { $0.count <= 80 })
    }

    @Test func everyLineIsBlackOnWhiteWhateverTheTheme() throws {
        let drawing = TerminalQR.halfBlocks(try QRCode(encoding: "HELLO"))
        #expect(drawing.hasSuffix("\n"))
        for line in drawing.split(separator: "\n") {
            #expect(line.hasPrefix("\u{1B}[38;5;16;48;5;231m"))
            #expect(line.hasSuffix("\u{1B}[0m"))
        }
    }

    @Test func theASCIIDrawingIsFaithfulAndPlain() throws {
        let code = try QRCode(encoding: Drawings.pairingURL())
        let drawing = TerminalQR.ascii(code, quietZone: 2)
        #expect(!drawing.contains("\u{1B}"))
        #expect(Set(drawing).isSubset(of: ["#", " ", "\n"]))
        expectEqual(Drawings.modules(fromASCII: drawing), Drawings.matrix(code, quietZone: 2))
        #expect(Drawings.lines(drawing).allSatisfy { $0.count == 2 * (code.size + 4) })
    }

    @Test func aNegativeQuietZoneIsNone() throws {
        let code = try QRCode(encoding: "HELLO")
        expectEqual(Drawings.modules(fromASCII: TerminalQR.ascii(code, quietZone: -3)), Drawings.matrix(code, quietZone: 0))
    }

    /// A tiny command for looking at a code by eye or scanning it with a phone:
    ///
    ///     HEARTH_QR_SHOW='http://192.168.1.20:8080/pair#abc' swift test --filter HearthQRTests.TerminalQRTests/show
    @Test func show() throws {
        guard let text = ProcessInfo.processInfo.environment["HEARTH_QR_SHOW"] else { return }
        let code = try QRCode(encoding: text)
        print(TerminalQR.halfBlocks(code) + TerminalQR.ascii(code), terminator: "")
    }
}
