import HearthNotek
import HearthTestSupport
import Testing

@Suite struct BetweenTests {
    typealias E = PositionID.Element

    /// Everything `between` promises about a result it returned.
    static func check(_ result: PositionID?, _ lower: PositionID?, _ upper: PositionID?, site: UInt8,
                      sourceLocation: SourceLocation = #_sourceLocation) {
        guard let result else {
            // Nil only when truly nothing fits.
            #expect(!somethingFits(lower, upper, site: site), "nil between \(lower.map(\.description) ?? "start") and \(upper.map(\.description) ?? "end")", sourceLocation: sourceLocation)
            return
        }
        #expect(lower.map { $0 < result } ?? true, "\(result) is not above \(String(describing: lower))", sourceLocation: sourceLocation)
        #expect(upper.map { result < $0 } ?? true, "\(result) is not below \(String(describing: upper))", sourceLocation: sourceLocation)
        #expect((1...PositionID.maximumDepth).contains(result.elements.count), sourceLocation: sourceLocation)
        #expect(result.elements.last?.site == site, sourceLocation: sourceLocation)
    }

    /// An independent, one-sided check: tries identifiers made of the bounds'
    /// prefixes and a few elements near every edge. When one fits, `between`
    /// must not have given up.
    static func somethingFits(_ lower: PositionID?, _ upper: PositionID?, site: UInt8) -> Bool {
        var prefixes: [[E]] = [[]]
        for bound in [lower, upper].compactMap({ $0 }) {
            for length in 0...bound.elements.count { prefixes.append(Array(bound.elements.prefix(length))) }
        }
        let idents: [UInt32] = [0, 1, 2, 3, .max - 2, .max - 1, .max]
        let sites: [UInt8] = [0, 1, 2, 3, 253, 254, 255, site]
        let elements = idents.flatMap { ident in sites.map { E(ident: ident, site: $0) } }
        func fits(_ elements: [E]) -> Bool {
            guard elements.count <= PositionID.maximumDepth, elements.last?.site == site else { return false }
            let candidate = PositionID(elements)
            return (lower.map { $0 < candidate } ?? true) && (upper.map { candidate < $0 } ?? true)
        }
        for prefix in prefixes {
            if fits(prefix) { return true }
            for element in elements {
                if fits(prefix + [element]) || fits(prefix + [element, E(ident: 1 << 31, site: site)]) { return true }
            }
        }
        return false
    }

    @Test func betweenTheStartAndTheEnd() throws {
        var random = SeededRandom(seed: 1)
        for site: UInt8 in [0, 1, 255] {
            let position = try #require(PositionID.between(nil, nil, site: site, using: &random))
            expectEqual(position.elements.count, 1)
            Self.check(position, nil, nil, site: site)
        }
        expectEqual(PositionID.between(nil, nil, site: 9)?.elements.count, 1)
    }

    /// Bounds that are not in order have nothing between them.
    @Test func boundsOutOfOrderGiveNil() {
        var random = SeededRandom(seed: 2)
        #expect(PositionID.between(Fixture.deep, Fixture.deep, site: 1, using: &random) == nil)
        #expect(PositionID.between(Fixture.deep, Fixture.shallow, site: 1, using: &random) == nil)
    }

    @Test func lowerAProperPrefixOfUpper() throws {
        var random = SeededRandom(seed: 3)
        let cases: [([E], [E])] = [
            ([E(ident: 5, site: 1)], [E(ident: 5, site: 1), E(ident: 9, site: 9)]),
            ([E(ident: 5, site: 1)], [E(ident: 5, site: 1), E(ident: 0, site: 1)]),
            ([E(ident: 5, site: 1)], [E(ident: 5, site: 1), E(ident: 0, site: 0), E(ident: 3, site: 3)]),
            ([E(ident: 5, site: 1)], [E(ident: 5, site: 1), E(ident: 0, site: 0), E(ident: 0, site: 0), E(ident: 0, site: 1)]),
        ]
        for (lower, upper) in cases {
            for site: UInt8 in [0, 1, 9, 255] {
                let result = PositionID.between(PositionID(lower), PositionID(upper), site: site, using: &random)
                #expect(result != nil, "\(lower) \(upper) site \(site)")
                Self.check(result, PositionID(lower), PositionID(upper), site: site)
            }
        }
        // Nothing sorts between an identifier and itself extended by (0, 0).
        #expect(PositionID.between(PositionID([E(ident: 5, site: 1)]), PositionID([E(ident: 5, site: 1), E(ident: 0, site: 0)]), site: 0, using: &random) == nil)
    }

    @Test func edgeBounds() throws {
        var random = SeededRandom(seed: 4)
        let max = E(ident: .max, site: .max)
        // No element is below (0, 0), so nothing fits before [(0, 0)].
        for site: UInt8 in [0, 1, 255] {
            #expect(PositionID.between(nil, PositionID([E(ident: 0, site: 0)]), site: site, using: &random) == nil)
        }
        // Below [(0, 1)]: (0, 0) itself, or below it nothing, so (0, 0) then a free level.
        expectEqual(PositionID.between(nil, PositionID([E(ident: 0, site: 1)]), site: 0, using: &random), PositionID([E(ident: 0, site: 0)]))
        let underOne = PositionID.between(nil, PositionID([E(ident: 0, site: 1)]), site: 7, using: &random)
        expectEqual(underOne?.elements.first, E(ident: 0, site: 0))
        Self.check(underOne, nil, PositionID([E(ident: 0, site: 1)]), site: 7)
        // Below [(0, 0), (0, 0)] only [(0, 0)] fits, and only for site 0.
        let zeros = PositionID([E(ident: 0, site: 0), E(ident: 0, site: 0)])
        expectEqual(PositionID.between(nil, zeros, site: 0, using: &random), PositionID([E(ident: 0, site: 0)]))
        #expect(PositionID.between(nil, zeros, site: 1, using: &random) == nil)
        // After the largest element: one level deeper.
        for site: UInt8 in [0, 255] {
            let after = try #require(PositionID.between(PositionID([max]), nil, site: site, using: &random))
            expectEqual(after.elements.count, 2)
            Self.check(after, PositionID([max]), nil, site: site)
        }
        // After 31 of them there is one level left; after 32, none.
        let deepest = PositionID(Array(repeating: max, count: 31))
        expectEqual(PositionID.between(deepest, nil, site: 3, using: &random)?.elements.count, 32)
        #expect(PositionID.between(PositionID(Array(repeating: max, count: 32)), nil, site: 3, using: &random) == nil)
        // Following the lower bound down would run out of depth; an element of
        // another site between the two limits still leaves room.
        let lower = PositionID([E(ident: 5, site: 10)] + Array(repeating: max, count: 31))
        let upper = PositionID([E(ident: 5, site: 12)])
        let squeezed = PositionID.between(lower, upper, site: 3, using: &random)
        expectEqual(squeezed?.elements.count, 2)
        Self.check(squeezed, lower, upper, site: 3)
        // Neighbours one element apart at every level still have room below them.
        let close = PositionID.between(PositionID([E(ident: 5, site: 10)]), PositionID([E(ident: 5, site: 11)]), site: 10, using: &random)
        Self.check(close, PositionID([E(ident: 5, site: 10)]), PositionID([E(ident: 5, site: 11)]), site: 10)
        #expect(close != nil)
    }

    /// Elements near every edge, to push the search into its corners.
    static func edgePosition(using random: inout SeededRandom) -> PositionID {
        let idents: [UInt32] = [0, 1, 2, .max - 1, .max]
        let sites: [UInt8] = [0, 1, 254, 255]
        let depth = Int.random(in: 0..<3, using: &random) == 0 ? PositionID.maximumDepth - Int.random(in: 0...1, using: &random) : Int.random(in: 1...4, using: &random)
        return PositionID((0..<depth).map { _ in
            E(ident: idents.randomElement(using: &random) ?? 0, site: sites.randomElement(using: &random) ?? 0)
        })
    }

    /// Seed 21. Random pairs, many sharing a prefix, in both random and
    /// edge-heavy flavours; results must lie strictly between.
    @Test func resultsLieStrictlyBetweenRandomBounds() {
        var random = SeededRandom(seed: 21)
        var nils = 0
        for round in 0..<6_000 {
            let edgy = round % 2 == 0
            func position() -> PositionID {
                edgy ? Self.edgePosition(using: &random) : RandomNotek.position(using: &random)
            }
            let first = position()
            var second = position()
            if Bool.random(using: &random) {
                // Share a prefix with the first.
                let shared = Int.random(in: 0...first.elements.count, using: &random)
                second = PositionID(Array((first.elements.prefix(shared) + second.elements).prefix(PositionID.maximumDepth)))
            }
            guard first != second else { continue }
            var lower: PositionID? = min(first, second)
            var upper: PositionID? = max(first, second)
            switch Int.random(in: 0..<6, using: &random) {
            case 0: lower = nil
            case 1: upper = nil
            default: break
            }
            let site: UInt8 = Bool.random(using: &random) ? [0, 1, 254, 255].randomElement(using: &random) ?? 0 : .random(in: 0 ... .max, using: &random)
            let result = PositionID.between(lower, upper, site: site, using: &random)
            if result == nil { nils += 1 }
            Self.check(result, lower, upper, site: site)
        }
        // Some of the edge pairs truly have no room; most do.
        #expect(nils < 600)
    }

    @Test func typingForwardStaysShallow() throws {
        var random = SeededRandom(seed: 31)
        var last: PositionID?
        var deepest = 0
        for _ in 0..<100_000 {
            let next = try #require(PositionID.between(last, nil, site: 3, using: &random))
            if let last { #expect(last < next) }
            deepest = max(deepest, next.elements.count)
            last = next
        }
        #expect(deepest <= 3)
    }

    @Test(arguments: [nil, PositionID([E(ident: 100, site: 1)]), PositionID([E(ident: 100, site: 200)]),
                      PositionID([E(ident: .max, site: .max)]), Fixture.deep] as [PositionID?])
    func typingBackwardsAtOneSpot(lower: PositionID?) throws {
        var random = SeededRandom(seed: 41)
        var upper: PositionID?
        var deepest = 0
        for _ in 0..<2_000 {
            let next = try #require(PositionID.between(lower, upper, site: 2, using: &random))
            Self.check(next, lower, upper, site: 2)
            deepest = max(deepest, next.elements.count)
            upper = next
        }
        #expect(deepest <= 4)
    }

    @Test func randomInsertionsKeepTheListSorted() throws {
        var random = SeededRandom(seed: 51)
        var list: [PositionID] = []
        for _ in 0..<1_000 {
            let index = Int.random(in: 0...list.count, using: &random)
            let lower = index > 0 ? list[index - 1] : nil
            let upper = index < list.count ? list[index] : nil
            let site = UInt8.random(in: 1...5, using: &random)
            let position = try #require(PositionID.between(lower, upper, site: site, using: &random))
            Self.check(position, lower, upper, site: site)
            list.insert(position, at: index)
        }
        #expect(zip(list, list.dropFirst()).allSatisfy { $0 < $1 })
        expectEqual(Set(list).count, list.count)
        #expect(list.allSatisfy { $0.elements.count <= PositionID.maximumDepth })
    }
}
