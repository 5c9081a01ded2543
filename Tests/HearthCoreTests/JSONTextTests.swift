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
        try expectEqual(JSONValue(jsonText: text), note)
    }

    @Test func numbersAreWholeWhenTheyAreWholeAndExactOtherwise() throws {
        #expect(try JSONValue.array([.number(1), .number(-0.5), .number(1_764_806_400_123), .number(2.25), .number(1e300)]).jsonText()
                == "[1,-0.5,1764806400123,2.25,1e+300]")
        #expect(throws: JSONTextError.self) { try JSONValue.number(.nan).jsonText() }
    }

    @Test func readsEscapesSurrogatePairsAndSpace() throws {
        let value = try JSONValue(jsonText: #" { "a" : [ true , false , null , -1.5e2 ] , "b" : "\u017c\ud83d\udc8a\/" } "#)
        expectEqual(value, ["a": .array([.bool(true), .bool(false), .null, .number(-150)]), "b": .string("ż💊/")])
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
            try expectEqual(JSONValue(jsonText: text), value)
            try expectEqual(JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)), value)
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
            expectEqual(Int64((try style.parse(text).timeIntervalSince1970 * 1000).rounded()), milliseconds, "\(text)")
            // …and ISOTime reads it back as the very same Date, to the bit.
            expectEqual(ISOTime.date(from: text), date, "\(text)")
            // …and writes the same calendar day and second. (Its milliseconds
            // are truncated from binary seconds, so 0.123 s can print as .122.)
            let whole = Date(timeIntervalSince1970: (Double(milliseconds) / 1000).rounded(.down))
            expectEqual(text.prefix(19), whole.formatted(style).prefix(19), "\(milliseconds)")
        }
        expectEqual(ISOTime.text(Date(timeIntervalSince1970: 951_782_400)), "2000-02-29T00:00:00.000Z")
    }

    @Test func aTimeNobodyCouldWriteIsRefusedNotRolledOver() {
        // Real ones, as clients send them.
        for text in ["2026-11-28T10:59:00Z", "2026-11-28T10:59:00.123Z", "2026-11-28T23:59:59+01:00", "2024-02-29T12:00:00Z",
                     "2000-02-29T00:00:00.000Z", "2026-11-28T10:00:00-05:30"] {
            #expect(ISOTime.date(from: text) != nil, "\(text)")
        }
        // What Foundation alone rolls over to another moment.
        for text in ["2026-11-28T10:99:00Z", "2026-11-28T25:00:00Z", "2026-02-31T10:00:00Z", "2026-02-29T10:00:00Z",
                     "1900-02-29T10:00:00Z", "2026-13-01T10:00:00Z", "2026-00-10T10:00:00Z", "2026-11-00T10:00:00Z",
                     "2026-11-28T10:00:61Z", "2026-11-28T10:00:00+24:00", "2026-11-28T10:00:00+01:60",
                     "2026-11-28T10:00:00", "2026-11-28T10:00:00.Z", "2026-11-28T10:00:00Zjunk", " 2026-11-28T10:00:00Z", ""] {
            #expect(ISOTime.date(from: text) == nil, "\(text)")
        }
    }
}
