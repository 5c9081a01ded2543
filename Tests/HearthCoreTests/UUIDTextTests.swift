import Foundation
import HearthCore
import Testing

/// IDs are written and read by hand on the hot path (every dose recorded);
/// they must agree with Foundation's reading and writing of the same IDs.
@Suite struct UUIDTextTests {
    @Test func writesAndReadsAsFoundationDoes() {
        for _ in 0..<2000 {
            let id = UUID()
            #expect(id.text == id.uuidString.lowercased())
            #expect(UUID(text: id.text) == id)
            #expect(UUID(text: id.uuidString) == id)
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
}
