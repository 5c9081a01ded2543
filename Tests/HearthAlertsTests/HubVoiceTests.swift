import Foundation
@testable import HearthAlerts
import HearthCore
import Testing

/// When the hub speaks: what is news in an alert's change, and quiet hours.
struct HubVoiceTests {
    func alert(_ kind: CareAlert.Kind, repeats: Int = 0) -> CareAlert {
        CareAlert(kind: kind, audience: .senior, personId: UUID.random(), raisedBy: "hub", raisedAt: Date(), repeats: repeats)
    }

    @Test func aReminderIsSaidAgainEachTimeItRepeatsAndAnSOSWhenAnswered() {
        var heard = SpokenAlerts()
        var said: [Bool] = []
        var due = alert(.doseDue)
        said.append(heard.isNews(due))
        said.append(heard.isNews(due))  // the same change twice is said once
        due.repeats = 1
        said.append(heard.isNews(due))
        due.details = ["personName": "Zosia"]
        said.append(heard.isNews(due))  // a change that is no repeat says nothing
        due.acknowledgedAt = Date()
        said.append(heard.isNews(due))
        var sos = alert(.sos)
        said.append(heard.isNews(sos))
        sos.respondedAt = Date()
        said.append(heard.isNews(sos))
        said.append(heard.isNews(sos))
        #expect(said == [true, false, true, false, false, true, true, false])
    }

    @Test func quietHoursMayCrossMidnightAndAreReadFromHoursAndMinutes() throws {
        let warsaw = try #require(TimeZone(identifier: "Europe/Warsaw"))
        let night = try #require(QuietHours("22:00-07:00"))
        func at(_ text: String) throws -> Date { try #require(ISOTime.date(from: text)) }
        #expect(night.contains(try at("2026-11-25T21:30:00Z"), in: warsaw))   // 22:30 in Warsaw
        #expect(night.contains(try at("2026-11-26T05:59:00Z"), in: warsaw))   // 06:59
        #expect(!night.contains(try at("2026-11-26T06:00:00Z"), in: warsaw))  // 07:00
        #expect(!night.contains(try at("2026-11-25T12:00:00Z"), in: warsaw))
        let lunch = try #require(QuietHours("13:00-14:30"))
        let (during, after) = (try at("2026-11-25T12:10:00Z"), try at("2026-11-25T13:30:00Z"))  // 13:10 and 14:30 in Warsaw
        #expect(lunch.contains(during, in: warsaw) && !lunch.contains(after, in: warsaw))
        for wrong in ["", "22:00", "22:00-22:00", "25:00-07:00", "late-early"] { #expect(QuietHours(wrong) == nil, "\(wrong)") }
        #expect(SpeechSettings.isVoiceName("pl+f3") && SpeechSettings.isVoiceName("en-gb"))
        #expect(!SpeechSettings.isVoiceName("-w /tmp/x") && !SpeechSettings.isVoiceName("pl; rm"))
    }
}
