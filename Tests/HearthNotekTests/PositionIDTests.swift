import HearthNotek
import HearthTestSupport
import Testing

@Suite struct PositionIDTests {
    typealias E = PositionID.Element

    @Test func elementsOrderByIdentThenSite() {
        #expect(E(ident: 1, site: 2) < E(ident: 1, site: 3))
        #expect(E(ident: 1, site: 255) < E(ident: 2, site: 0))
        #expect(!(E(ident: 7, site: 7) < E(ident: 7, site: 7)))
    }

    @Test func identifiersOrderElementByElement() {
        let sorted: [PositionID] = [
            PositionID([]),
            PositionID([E(ident: 0, site: 0)]),
            PositionID([E(ident: 0, site: 0), E(ident: 0, site: 0)]),
            PositionID([E(ident: 5, site: 1)]),
            PositionID([E(ident: 5, site: 1), E(ident: 0, site: 0)]),  // a proper prefix sorts first
            PositionID([E(ident: 5, site: 1), E(ident: .max, site: .max)]),
            PositionID([E(ident: 5, site: 2)]),  // the site breaks the tie
            PositionID([E(ident: 5, site: 2), E(ident: 1, site: 1), E(ident: 1, site: 1)]),
            PositionID([E(ident: 6, site: 0)]),
            PositionID([E(ident: .max, site: .max)]),
        ]
        for (i, left) in sorted.enumerated() {
            for (j, right) in sorted.enumerated() {
                expectEqual((left < right), (i < j), "\(left) < \(right)")
                expectEqual((left == right), (i == j))
            }
        }
        expectEqual(sorted.reversed().sorted(), sorted)
    }

    @Test func describesItselfPlainly() {
        expectEqual(Fixture.deep.description, "[305419896:7 4294967295:255]")
    }

    @Test func bytesRoundTrip() throws {
        var random = SeededRandom(seed: 11)
        for _ in 0..<2_000 {
            let position = RandomNotek.position(using: &random)
            let bytes = position.bytes
            expectEqual(bytes.count, 1 + 5 * position.elements.count)
            expectEqual(bytes.first, UInt8(position.elements.count))
            try expectEqual(PositionID(bytes: bytes), position)
        }
    }

    /// The byte layout written out by hand: depth, then ident little-endian and site.
    @Test func bytesAreLittleEndian() throws {
        let position = PositionID([E(ident: 0xA1B2_C3D4, site: 0x05), E(ident: 0, site: 0xFE)])
        let bytes: [UInt8] = [0x02, 0xD4, 0xC3, 0xB2, 0xA1, 0x05, 0x00, 0x00, 0x00, 0x00, 0xFE]
        expectEqual(position.bytes, bytes)
        try expectEqual(PositionID(bytes: bytes), position)
    }
}
