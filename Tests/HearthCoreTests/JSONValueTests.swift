import Foundation
import HearthCore
import HearthTestSupport
import Testing

@Suite struct JSONValueTests {
    @Test func payloadsRoundTripThroughText() throws {
        let payload: JSONValue = [
            "name": "Babcia's pills",
            "strength": .number(2.5),
            "active": .bool(true),
            "times": .array(["08:00", "20:00"]),
            "note": .null,
        ]
        let text = try payload.jsonText()
        try expectEqual(JSONValue(jsonText: text), payload)
        // Sorted keys: equal payloads are stored as equal text.
        #expect(text.hasPrefix("{\"active\":true,"))
    }

    @Test func textThatIsNotJSONIsRejected() {
        #expect(throws: (any Error).self) { try JSONValue(jsonText: "{not json") }
    }
}
