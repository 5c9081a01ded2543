@testable import HearthServer
import HearthTestSupport
import Testing

/// A close reason longer than its frame can hold would make a browser fail
/// the connection and show no reason at all.
@Suite struct CloseReasonTests {
    @Test func aLongReasonIsCutToFitOnACharacterBoundary() {
        let long = "refused: " + String(repeating: "żółw ", count: 40)
        let reason = CloseReason.fitting(long)
        #expect(reason.utf8.count <= 123)
        #expect(reason.utf8.count >= 120, "cut as late as the characters allow")
        #expect(long.hasPrefix(reason))
    }

    @Test func aShortReasonIsKeptWhole() {
        expectEqual(CloseReason.fitting("gone: the note was removed"), "gone: the note was removed")
    }
}
