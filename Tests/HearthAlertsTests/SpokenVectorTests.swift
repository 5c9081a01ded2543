import Foundation
@testable import HearthAlerts
import HearthCore
import HearthTestSupport
import Testing

/// Tests/vectors/words/spoken.json, which Web/tests/shared-spoken.test.js
/// reads too: the hub's voice says every amount in the words Listen uses on
/// a page, and says its own sentence for each alert.
struct SpokenVectorTests {
    struct Vectors: Decodable {
        struct Amount: Decodable {
            var language: HouseholdLanguage
            var amount: Double
            var unit: String
            var spoken: String
        }
        struct Sentence: Decodable {
            var language: HouseholdLanguage
            var kind: CareAlert.Kind
            var person: String
            var medication: String?
            var amount: Double?
            var unit: String?
            var time: String
            var helper: String?
            var cancelled: Bool?
            var hub: String
        }
        var amounts: [Amount]
        var sentences: [Sentence]
    }

    static func vectors() throws -> Vectors {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("vectors/words/spoken.json")
        return try JSONDecoder().decode(Vectors.self, from: Data(contentsOf: file))
    }

    @Test func theHubSaysEverySharedAmountAsListenDoes() throws {
        let vectors = try Self.vectors()
        #expect(vectors.amounts.count > 40)
        for vector in vectors.amounts {
            #expect(SpokenAmount.text(vector.amount, unit: vector.unit, language: vector.language) == vector.spoken,
                    "\(vector.language.rawValue) \(vector.amount) \(vector.unit)")
        }
    }

    @Test func theHubSaysEachSharedAlertAloud() throws {
        let vectors = try Self.vectors()
        let raised = try #require(ISOTime.date(from: "2026-11-25T08:05:00Z"))
        let her = UUID.random()
        for vector in vectors.sentences {
            var details: [String: JSONValue] = ["personName": .string(vector.person)]
            if let medication = vector.medication, let amount = vector.amount, let unit = vector.unit {
                details["medicationName"] = .string(medication)
                details["amount"] = .number(amount)
                details["unit"] = .string(unit)
                details["plannedTime"] = .string(vector.time)
            }
            if let helper = vector.helper { details["respondedByName"] = .string(helper) }
            let answered = vector.helper.map { _ in raised.addingTimeInterval(60) }
            let cancelled = vector.cancelled == true ? raised.addingTimeInterval(60) : nil
            let alert = CareAlert(kind: vector.kind, audience: vector.kind == .doseDue ? .senior : .caregivers, personId: her,
                                  raisedBy: "hub", raisedAt: raised, details: .object(details),
                                  acknowledgedAt: cancelled, acknowledgedBy: cancelled.map { _ in her }, respondedAt: answered)
            let wording = AlertWording(language: vector.language, timeZone: .gmt)
            expectEqual(wording.spoken(alert), vector.hub, "\(vector.language.rawValue) \(vector.kind.rawValue)")
        }
    }
}
