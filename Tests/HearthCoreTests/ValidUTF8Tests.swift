import Foundation
import HearthCore
import HearthTestSupport
import Testing

/// Names and note text arrive as bytes (Notek frames, stored JSON); damaged
/// bytes must be refused, never repaired into U+FFFD and stored.
@Suite struct ValidUTF8Tests {
    static let damaged: [[UInt8]] = [
        [0xC3],                    // a two-byte letter cut short
        [0x61, 0xFF, 0x62],        // a byte UTF-8 never uses
        [0xC0, 0x80],              // an overlong NUL
        [0xED, 0xA0, 0x80],        // a UTF-16 surrogate written as UTF-8
        [0xF4, 0x90, 0x80, 0x80],  // past U+10FFFF
        [0x80],                    // a continuation byte alone
    ]

    @Test func polishLettersAndEmojiAreRead() {
        let text = "Żółć, łyżka syropu 💊👵🏼"
        expectEqual(String(validUTF8: Array(text.utf8)), text)
        expectEqual(String(validUTF8: Array(text.utf8)[...]), text)
        expectEqual(String(validUTF8: [UInt8]()), "")
    }

    @Test(arguments: damaged)
    func damagedBytesAreRefused(bytes: [UInt8]) {
        #expect(String(validUTF8: bytes) == nil)
        // The path taken on macOS 14 and iOS 17 refuses the same bytes.
        #expect(String(bytes: bytes, encoding: .utf8) == nil)
    }
}
