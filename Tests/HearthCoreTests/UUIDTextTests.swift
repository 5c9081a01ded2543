import Foundation
import HearthCore
import HearthTestSupport
import Testing

/// IDs are written and read by hand on the hot path (every dose recorded);
/// they must agree with Foundation's reading and writing of the same IDs.
@Suite struct UUIDTextTests {
    @Test func writesAndReadsAsFoundationDoes() {
        for _ in 0..<2000 {
            let id = UUID()
            expectEqual(id.text, id.uuidString.lowercased())
            expectEqual(UUID(text: id.text), id)
            expectEqual(UUID(text: id.uuidString), id)
        }
        let edges = [UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
                     UUID(uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255))]
        for id in edges { #expect(UUID(text: id.text) == id && id.text == id.uuidString.lowercased()) }
    }

    @Test(arguments: [
        "", "not an id", "0f8fad5b-d9cb-469f-a165-70867728950", "0f8fad5b-d9cb-469f-a165-70867728950e0",
        "0f8fad5bd9cb-469f-a165-70867728950e0", "0f8fad5b-d9cb-469f-a165_70867728950e", "0f8fad5g-d9cb-469f-a165-70867728950e",
        " 0f8fad5b-d9cb-469f-a165-70867728950e", "0f8fad5b-d9cb-469f-a165-70867728950é", "{0f8fad5b-d9cb-469f-a165-70867728950e}",
    ])
    func refusesWhatFoundationRefuses(text: String) {
        #expect(UUID(uuidString: text) == nil)
        #expect(UUID(text: text) == nil)
    }

    @Test func newIDsAreRandomVersion4() {
        let ids = (0..<2000).map { _ in UUID.random() }
        expectEqual(Set(ids).count, ids.count)
        for id in ids {
            let text = Array(id.text)
            expectEqual(text[14], "4", "version 4: \(id.text)")
            #expect("89ab".contains(text[19]), "the RFC's variant: \(id.text)")
            expectEqual(UUID(uuidString: id.text), id)
        }
        // Every other bit varies.
        let bytes = ids.map { withUnsafeBytes(of: $0.uuid) { Array($0) } }
        for index in 0..<16 {
            let fixed: UInt8 = index == 6 ? 0xF0 : index == 8 ? 0xC0 : 0
            #expect(bytes.reduce(UInt8(0)) { $0 | $1[index] } | fixed == 0xFF, "byte \(index)")
        }
    }

    /// Doses' ids sort by when they were made (version 7), so new ones are
    /// stored together at the end of the doses' b-tree.
    @Test func timeOrderedIDsSortByTheirMomentAsText() throws {
        let moment = Date(timeIntervalSince1970: 1_800_000_000.125)
        let id = UUID.timeOrdered(at: moment)
        #expect(id.text.hasPrefix("01a3185c-507d-7"), "its first 48 bits are 1,800,000,000,125 ms, then version 7: \(id.text)")
        expectEqual(Array(id.text)[14], "7", "version 7: \(id.text)")
        #expect("89ab".contains(Array(id.text)[19]), "the RFC's variant: \(id.text)")
        expectEqual(UUID(uuidString: id.text), id)
        // Two milliseconds apart, so no two fall in one millisecond however the seconds round.
        let texts = (0..<500).map { UUID.timeOrdered(at: moment.addingTimeInterval(Double($0) * 0.002)).text }
        let sorted = zip(texts, texts.dropFirst()).allSatisfy { $0 < $1 }
        #expect(sorted, "a later millisecond sorts later")
        let same = (0..<500).map { _ in UUID.timeOrdered(at: moment) }
        expectEqual(Set(same).count, same.count, "within one millisecond the random bits tell them apart")
    }
}
