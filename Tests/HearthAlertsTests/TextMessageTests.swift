import Foundation
@testable import HearthAlerts
import HearthCore
import HearthTestSupport
import Testing

/// Text messages: how many parts (what they cost), the SOS kept to one,
/// and replies read as a person types them — and nothing else taken for one.
struct TextMessageTests {
    let warsaw = TimeZone(identifier: "Europe/Warsaw")!

    func sos(_ name: String) throws -> CareAlert {
        CareAlert(kind: .sos, audience: .caregivers, personId: UUID.random(), raisedBy: "device:x",
                  raisedAt: try #require(ISOTime.date(from: "2026-11-28T13:19:00Z")), details: ["personName": .string(name)])
    }

    @Test func plainEnglishIsGSMAndAPolishLetterMakesItUCS2() {
        expectEqual(TextMessage("Reply 1 4821").coding, .gsm7)
        expectEqual(TextMessage(String(repeating: "a", count: 160)).parts, 1)
        expectEqual(TextMessage(String(repeating: "a", count: 161)).parts, 2)
        expectEqual(TextMessage(String(repeating: "a", count: 307)).parts, 3, "153 a part")
        expectEqual(TextMessage("€").length, 2, "an extension character takes two")
        expectEqual(TextMessage("jadę").coding, .ucs2)
        expectEqual(TextMessage(String(repeating: "ż", count: 70)).parts, 1)
        expectEqual(TextMessage(String(repeating: "ż", count: 71)).parts, 2)
        expectEqual(TextMessage(String(repeating: "ż", count: 135)).parts, 3, "67 a part")
    }

    @Test func anSOSFitsOnePartInBothLanguagesAndCarriesOnlyItsCode() throws {
        let english = AlertWording(language: .english, timeZone: warsaw).textMessage(try sos("Babcia Zosia"), code: "4821")
        let polish = AlertWording(language: .polish, timeZone: warsaw).textMessage(try sos("Babcia Zosia"), code: "4821")
        expectEqual(english.text, "SOS from home: Babcia Zosia needs help (14:19). Reply 1 4821 if you are on your way.")
        expectEqual(polish.text, "SOS: Babcia Zosia wzywa pomocy (14:19). Odpisz 1 4821, gdy jedziesz.")
        #expect(english.coding == .gsm7 && english.parts == 1)
        expectEqual(polish.parts, 1, "no Polish letter in it: GSM, one part")
        // A name with a Polish letter makes it UCS-2: still one part of 70.
        let accented = AlertWording(language: .polish, timeZone: warsaw).textMessage(try sos("Babcia Żaneta"), code: "4821")
        #expect(accented.coding == .ucs2 && accented.parts == 1, "\(accented.length) of 70")
        for message in [english, polish] {
            let groups = message.text.split { !$0.isNumber }.map(String.init).filter { (4...6).contains($0.count) }
            expectEqual(groups, ["4821"], "the code is the only group of 4 to 6 digits")
        }
        // A long name makes it a concatenated message: two parts, nothing cut.
        let long = AlertWording(language: .polish, timeZone: warsaw).textMessage(try sos("Prababcia Zofia Łęcka-Wiśniewska"), code: "4821")
        #expect(long.parts == 2 && long.text.hasSuffix("Odpisz 1 4821, gdy jedziesz."))
    }

    @Test func aReplyIsOneOrTwoAndTheCodeAsPeopleTypeIt() {
        expectEqual(TextReply("1 4821"), TextReply(answer: .respond, code: "4821"))
        expectEqual(TextReply("  2 482133 "), TextReply(answer: .acknowledge, code: "482133"))
        expectEqual(TextReply("1-4821"), TextReply(answer: .respond, code: "4821"))
        expectEqual(TextReply("1 4821 jadę, 20 minut"), TextReply(answer: .respond, code: "4821"))
        for noReply in ["14821", "3 4821", "1 482", "1 4821337", "1 48a1", "ok 1 4821", "", "1", "jadę", "1 4821x"] {
            #expect(TextReply(noReply) == nil, "\(noReply)")
        }
    }
}
