import Foundation
import HearthCore
import HearthTestSupport
import Testing

/// The hand-written JSON writer and reader carry every change payload and
/// every care response, so they must agree with Foundation's JSON exactly.
@Suite struct JSONTextTests {
    @Test func textEscapesWhatJSONRequiresAndKeepsTheRest() throws {
        let note: JSONValue = ["text": .string("Mleko \"2%\"\n\tchleb\\masło\u{1}/ żółć 💊")]
        let text = try note.jsonText()
        #expect(text == #"{"text":"Mleko \"2%\"\n\tchleb\\masło\u0001/ żółć 💊"}"#)
        // Foundation reads it back to the same string.
        let decoded = try JSONDecoder().decode([String: String].self, from: Data(text.utf8))
        #expect(decoded["text"] == "Mleko \"2%\"\n\tchleb\\masło\u{1}/ żółć 💊")
        #expect(try JSONValue(jsonText: text) == note)
    }

    @Test func numbersAreWholeWhenTheyAreWholeAndExactOtherwise() throws {
        #expect(try JSONValue.array([.number(1), .number(-0.5), .number(1_764_806_400_123), .number(2.25), .number(1e300)]).jsonText()
                == "[1,-0.5,1764806400123,2.25,1e+300]")
        #expect(throws: JSONTextError.self) { try JSONValue.number(.nan).jsonText() }
    }

    @Test func readsEscapesSurrogatePairsAndSpace() throws {
        let value = try JSONValue(jsonText: #" { "a" : [ true , false , null , -1.5e2 ] , "b" : "\u017c\ud83d\udc8a\/" } "#)
        #expect(value == ["a": .array([.bool(true), .bool(false), .null, .number(-150)]), "b": .string("ż💊/")])
    }

    @Test func damagedTextIsRefusedWithWhereItWentWrong() {
        for damaged in ["{not json", "[1,]", "\"open", "01", "1.", "{\"a\" 1}", "tru", "[1] 2", "\"\\ud800\"", "\"a\u{1}\"", ""] {
            #expect(throws: JSONTextError.self, "\(damaged)") { try JSONValue(jsonText: damaged) }
        }
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: JSONTextError.self) { try JSONValue(jsonText: deep) }
    }

    @Test func randomValuesRoundTripAndFoundationAgrees() throws {
        var random = SeededRandom(seed: 20261122)
        for _ in 0..<500 {
            let value = Self.randomValue(depth: 0, using: &random)
            let text = try value.jsonText()
            #expect(try JSONValue(jsonText: text) == value)
            #expect(try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) == value)
        }
    }

    static func randomValue(depth: Int, using random: inout SeededRandom) -> JSONValue {
        switch Int.random(in: depth > 3 ? 0...3 : 0...5, using: &random) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &random))
        case 2: return .number(Bool.random(using: &random) ? Double(Int.random(in: -1_000_000...1_000_000, using: &random))
                                                           : Double.random(in: -1e6...1e6, using: &random))
        case 3:
            let alphabet = Array("abcżółć \"\\/\n\t💊\u{7}\u{2028}")
            return .string(String((0..<Int.random(in: 0...12, using: &random)).map { _ in alphabet.randomElement(using: &random)! }))
        case 4: return .array((0..<Int.random(in: 0...4, using: &random)).map { _ in randomValue(depth: depth + 1, using: &random) })
        default:
            var fields: [String: JSONValue] = [:]
            for index in 0..<Int.random(in: 0...4, using: &random) { fields["k\(index)"] = randomValue(depth: depth + 1, using: &random) }
            return .object(fields)
        }
    }
}

@Suite struct ISOTimeTests {
    @Test func agreesWithFoundationAndKeepsTheStoredMillisecond() throws {
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)
        var random = SeededRandom(seed: 20261122)
        // Leap days, the turn of centuries and moments before 1970.
        let fixed: [Int64] = [0, -1, 951_782_400_000, 4_107_542_399_999, -2_208_988_800_000, 1_709_164_800_123]
        for milliseconds in fixed + (0..<2000).map({ _ in Int64.random(in: -2_208_988_800_000...7_258_118_400_000, using: &random) }) {
            let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            let text = ISOTime.text(date)
            // Foundation reads it back as the very millisecond that was stored…
            #expect(Int64((try style.parse(text).timeIntervalSince1970 * 1000).rounded()) == milliseconds, "\(text)")
            // …and ISOTime reads it back as the very same Date, to the bit.
            #expect(ISOTime.date(from: text) == date, "\(text)")
            // …and writes the same calendar day and second. (Its milliseconds
            // are truncated from binary seconds, so 0.123 s can print as .122.)
            let whole = Date(timeIntervalSince1970: (Double(milliseconds) / 1000).rounded(.down))
            #expect(text.prefix(19) == whole.formatted(style).prefix(19), "\(milliseconds)")
        }
        #expect(ISOTime.text(Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29T00:00:00.000Z")
    }
}
