import HearthNotek
import HearthTestSupport
import Testing

/// Every way a frame can be malformed gives a specific `NotekProtocolError`.
@Suite struct BadInputTests {
    /// A frame cut anywhere is refused as truncated. (The one-byte prefix of
    /// a synclist is a greet, which the kind tests cover.)
    @Test(arguments: goldens)
    func everyCutFrameIsRefused(_ golden: Golden) {
        for decoding in golden.decodings {
            for length in 0..<golden.frame.count {
                let cut = Array(golden.frame.prefix(length))
                if cut == [0x00] { continue }
                let error = decoding.direction.error(decoding: cut, on: decoding.kind)
                let expected: Bool
                switch error {
                case .truncated?, .countTooLarge?: expected = true
                default: expected = false
                }
                #expect(expected, "\(length) bytes: \(String(describing: error))")
            }
        }
    }

    @Test(arguments: goldens)
    func trailingBytesAreRefused(_ golden: Golden) {
        for decoding in golden.decodings where golden.message != .greet {
            expectEqual(decoding.direction.error(decoding: golden.frame + [0x00], on: decoding.kind), .trailingBytes(1))
            expectEqual(decoding.direction.error(decoding: golden.frame + [0x0A, 0x0A, 0x0A], on: decoding.kind), .trailingBytes(3))
        }
    }

    @Test func truncatedInsideAPID() {
        let frame: [UInt8] = [0x42, 0x01, 0x02, 0x78, 0x56, 0x34, 0x12, 0x07, 0xFF, 0xFF]
        expectEqual(Direction.fromClient.error(decoding: frame, on: .session), .truncated(what: "a PID"))
    }

    @Test(arguments: [0, 33, 200, 255])
    func pidDepthsOutsideOneTo32AreRefused(depth: Int) {
        let elements = [UInt8](repeating: 0x01, count: depth * 5)
        let pid = [UInt8(depth)] + elements
        expectEqual(Direction.fromClient.error(decoding: [0x42, 0x01] + pid, on: .session), .badDepth(depth))
        expectEqual(Direction.fromHub.error(decoding: [0x03, 0x01] + pid, on: .legacy), .badDepth(depth))
        expectEqual(Direction.fromClient.error(decoding: [0x41, 0x01, 0x01, 0x61] + pid, on: .session), .badDepth(depth))
        #expect(throws: NotekProtocolError.badDepth(depth)) { try PositionID(bytes: pid) }
    }

    @Test func depth32IsAccepted() throws {
        let pid = [UInt8(32)] + [UInt8](repeating: 0x01, count: 32 * 5)
        let position = try PositionID(bytes: pid)
        expectEqual(position.elements.count, 32)
        expectEqual(position.bytes, pid)
    }

    @Test(arguments: [0, 5, 6, 255])
    func characterLengthsOutsideOneToFourAreRefused(length: Int) {
        let frame = [0x41, 0x01, UInt8(length)] + [UInt8](repeating: 0x61, count: length) + Fixture.shallowBytes
        expectEqual(Direction.fromClient.error(decoding: frame, on: .session), .badCharacterLength(length))
    }

    @Test(arguments: [
        [0x61, 0x62],                // two characters
        [0xC5, 0xBC, 0x61],          // ż and a
        [0x80],                      // a continuation byte alone
        [0xC5],                      // half of ż
        [0xF0, 0x9F, 0x98],          // three quarters of 😀
        [0xC0, 0x80],                // overlong NUL
        [0xE0, 0x80, 0x80],          // overlong
        [0xF0, 0x80, 0x80, 0x80],    // overlong
        [0xED, 0xA0, 0x80],          // a UTF-16 surrogate
        [0xF4, 0x90, 0x80, 0x80],    // above U+10FFFF
        [0xFF],
        [0xF0, 0x9F, 0x98, 0x80].reversed(),
    ] as [[UInt8]])
    func atomBytesThatAreNotOneCharacterAreRefused(character: [UInt8]) {
        let frame = [0x41, 0x01, UInt8(character.count)] + character + Fixture.shallowBytes
        expectEqual(Direction.fromClient.error(decoding: frame, on: .session), .notOneCharacter)
        expectEqual(Direction.fromHub.error(decoding: [0x02] + frame.dropFirst(), on: .legacy), .notOneCharacter)
    }

    @Test func namesOver255BytesAreRefused() {
        let name = [UInt8](repeating: 0x61, count: 256)
        expectEqual(Direction.fromClient.error(decoding: [0x43] + name + [0x0A], on: .session), .nameTooLong(256))
        expectEqual(Direction.fromClient.error(decoding: [0x03] + Fixture.documentBytes + name + name + [0x0A], on: .sync), .nameTooLong(512))
        #expect(Direction.fromClient.error(decoding: [0x43] + name.dropLast() + [0x0A], on: .session) == nil)
    }

    @Test(arguments: [[0xFF], [0xC5], [0x61, 0xC5], [0xED, 0xA0, 0x80], [0xC0, 0x80]] as [[UInt8]])
    func namesThatAreNotUTF8AreRefused(name: [UInt8]) {
        expectEqual(Direction.fromHub.error(decoding: [0x43] + name + [0x0A], on: .session), .nameNotUTF8)
        expectEqual(Direction.fromClient.error(decoding: [0x40] + Fixture.timeBytes + Fixture.documentBytes + name + [0x0A], on: .undecided), .nameNotUTF8)
    }

    @Test func aNameWithoutItsNewLineIsTruncated() {
        expectEqual(Direction.fromClient.error(decoding: [0x43, 0x44, 0x6F, 0x6D], on: .session)?.isTruncated, true)
    }

    /// Counts are checked against what is left before anything is allocated:
    /// a forged 2^64 - 1 costs nothing.
    @Test func countsLargerThanTheFrameCanHoldAreRefused() {
        let huge: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        let two: [UInt8] = [0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]
        let one: [UInt8] = [0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]
        let zero: [UInt8] = [0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]
        // newSession: atoms take at least 8 bytes, and one ż atom is 9.
        expectEqual(Direction.fromHub.error(decoding: [0x01, 0x01] + huge, on: .legacy), .countTooLarge(.max))
        expectEqual(Direction.fromHub.error(decoding: [0x01, 0x01] + two + Fixture.polishBytes, on: .legacy), .countTooLarge(2))
        // Upsert: inserts, then deletes.
        let upsertHead: [UInt8] = [0x02] + Fixture.documentBytes + [0x0A] + Fixture.timeBytes
        expectEqual(Direction.fromClient.error(decoding: upsertHead + huge, on: .sync), .countTooLarge(.max))
        expectEqual(Direction.fromClient.error(decoding: upsertHead + zero + huge, on: .sync), .countTooLarge(.max))
        expectEqual(Direction.fromClient.error(decoding: upsertHead + zero + two + Fixture.shallowBytes, on: .sync), .countTooLarge(2))
        // sync_doc_response.
        let responseHead: [UInt8] = [0x21] + Fixture.documentBytes + [0x0A]
        expectEqual(Direction.fromHub.error(decoding: responseHead + huge, on: .sync), .countTooLarge(.max))
        expectEqual(Direction.fromHub.error(decoding: responseHead + zero + huge, on: .sync), .countTooLarge(.max))
        // Document list entries are 24 bytes each.
        expectEqual(Direction.fromHub.error(decoding: [0x20] + huge, on: .sync), .countTooLarge(.max))
        expectEqual(Direction.fromHub.error(decoding: [0x20] + one + [UInt8](repeating: 0, count: 23), on: .sync), .countTooLarge(1))
        #expect(Direction.fromHub.error(decoding: [0x20] + one + [UInt8](repeating: 0, count: 24), on: .sync) == nil)
    }

    @Test func positionIDBytesMustBeExactlyOneIdentifier() {
        #expect(throws: NotekProtocolError.truncated(what: "a PID's depth")) { try PositionID(bytes: []) }
        #expect(throws: NotekProtocolError.truncated(what: "a PID")) { try PositionID(bytes: [0x01, 0x01, 0x00, 0x00]) }
        #expect(throws: NotekProtocolError.truncated(what: "a PID")) { try PositionID(bytes: [0x02] + Fixture.shallowBytes.dropFirst()) }
        #expect(throws: NotekProtocolError.trailingBytes(1)) { try PositionID(bytes: Fixture.shallowBytes + [0x09]) }
        #expect(throws: NotekProtocolError.trailingBytes(6)) { try PositionID(bytes: Fixture.shallowBytes + Fixture.shallowBytes) }
        #expect(throws: NotekProtocolError.badDepth(0)) { try PositionID(bytes: [0x00]) }
    }

    /// Identifiers `between` never makes are still encoded without trapping,
    /// and refused by the other side.
    @Test func invalidIdentifiersEncodeButAreRefused() {
        expectEqual(PositionID([]).bytes, [0x00])
        let deep = PositionID([PositionID.Element](repeating: .init(ident: 1, site: 1), count: 300))
        expectEqual(deep.bytes.count, 1 + 255 * 5)
        #expect(throws: NotekProtocolError.badDepth(255)) { try PositionID(bytes: deep.bytes) }
        expectEqual(Direction.fromClient.error(decoding: NotekMessage.delete(site: 1, position: PositionID([])).bytes, on: .session), .badDepth(0))
    }
}
