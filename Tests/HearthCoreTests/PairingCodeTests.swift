import Foundation
import HearthCore
import HearthTestSupport
import Testing

@Suite struct PairingCodeTests {
    @Test func codesAreFreshAndWellFormed() {
        let codes = (0..<200).map { _ in PairingCode.generate() }
        expectEqual(Set(codes.map(\.secret)).count, 200)
        #expect(Set(codes.map(\.shortCode)).count > 195)
        for code in codes {
            #expect(PairingCode.isWellFormedSecret(code.secret), "\(code.secret)")
            expectEqual(code.shortCode.count, 8)
            #expect(code.shortCode.allSatisfy { PairingCode.alphabet.contains($0) })
            expectEqual(PairingCode.normalizedShortCode(code.displayedShortCode), code.shortCode)
        }
    }

    @Test func typedShortCodesForgiveCaseDashesAndLookAlikes() {
        expectEqual(PairingCode(secret: "", shortCode: "AB12CD34").displayedShortCode, "AB12-CD34")
        expectEqual(PairingCode.normalizedShortCode("ab12-cd34"), "AB12CD34")
        expectEqual(PairingCode.normalizedShortCode(" AB12 CD34 "), "AB12CD34")
        expectEqual(PairingCode.normalizedShortCode("oi1L-0000"), "01110000")
        #expect(PairingCode.normalizedShortCode("AB12-CD3") == nil, "too short")
        #expect(PairingCode.normalizedShortCode("AB12-CD3U") == nil, "U is not in the alphabet")
        #expect(PairingCode.normalizedShortCode("AB12-CD34!") == nil)
    }

    @Test func onlyBase64URLSecretsOfTheRightLengthAreAccepted() {
        #expect(!PairingCode.isWellFormedSecret(""))
        #expect(!PairingCode.isWellFormedSecret(String(repeating: "a", count: 21)))
        #expect(!PairingCode.isWellFormedSecret(String(repeating: "a", count: 21) + "/"))
        #expect(PairingCode.isWellFormedSecret(String(repeating: "a", count: 21) + "_"))
    }
}
