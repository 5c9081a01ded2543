import Foundation
@testable import HearthAlerts
import HearthCore
import Testing

/// Tests/vectors/words/amounts.json, which Web/tests/shared-amounts.test.js
/// reads too: the hub's messages and voice write an amount as the pages do.
struct AmountWordsVectorTests {
    struct Vectors: Decodable {
        struct Case: Decodable {
            var language: HouseholdLanguage
            var amount: Double
            var unit: String
            var text: String
        }
        var cases: [Case]
    }

    @Test func theHubWritesEverySharedAmountAsThePagesDo() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("vectors/words/amounts.json")
        let vectors = try JSONDecoder().decode(Vectors.self, from: Data(contentsOf: file))
        #expect(vectors.cases.count > 30)
        for vector in vectors.cases {
            #expect(AmountWords.text(vector.amount, unit: vector.unit, language: vector.language) == vector.text,
                    "\(vector.language.rawValue) \(vector.amount) \(vector.unit)")
        }
    }
}
