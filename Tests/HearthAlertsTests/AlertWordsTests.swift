import Foundation
@testable import HearthAlerts
import HearthCore
import HearthTestSupport
import Testing

/// What an alert app asks for and what a phone shows, from the protocol's side.
struct AlertWordsTests {
    @Test func topicsAreTheFourNamesMostParticularFirstAndNothingElse() {
        // The app names a server's topics in the order its notifications
        // last came, which changes: the hub's order does not.
        expectEqual(AlertTopic.list("sos,doses"), [.sos, .doses])
        expectEqual(AlertTopic.list("doses,sos"), [.sos, .doses])
        expectEqual(AlertTopic.list("alerts,stock"), [.stock, .alerts])
        expectEqual(AlertTopic.list("alerts"), [.alerts])
        expectEqual(AlertTopic.list("sos,sos"), [.sos])
        for wrong in ["", "SOS", "sos,", "notes", "sos,doses,stock,alerts,sos", "s%20os"] {
            #expect(AlertTopic.list(wrong) == nil, "\(wrong)")
        }
        expectEqual(AlertTopic.first(of: [.stock, .alerts, .sos], including: .sos), .sos)
        expectEqual(AlertTopic.first(of: [.alerts, .doses], including: .doseDue), .doses)
        expectEqual(AlertTopic.first(of: [.alerts, .doses], including: .lowStock), .alerts)
        #expect(AlertTopic.first(of: [.stock], including: .doseMissed) == nil)
        #expect(AlertTopic.doses.includes(.doseDue) && AlertTopic.doses.includes(.doseMissed) && !AlertTopic.doses.includes(.sos))
    }

    @Test func sinceIsNoneAllAMessageIdOrUnixSeconds() throws {
        expectEqual(NtfySince.parse("none"), NtfySince.none)
        expectEqual(NtfySince.parse("all"), .all)
        expectEqual(NtfySince.parse("h42"), .after(seq: 42, at: nil))
        expectEqual(NtfySince.parse("h42-tAbcDef2345"), .after(seq: 42, at: nil))
        expectEqual(NtfySince.parse("1700000000"), .time(Date(timeIntervalSince1970: 1_700_000_000)))
        for wrong in ["", "yesterday", "h", "h-1", "hx", "h12-x", "-5", "10m", "1.5", "h1-t😀", "h1-m", "h1-mABC", "h1-m1234567890123"] {
            #expect(NtfySince.parse(wrong) == nil, "\(wrong)")
        }
        let test = NtfyMessageID.test(after: 7)
        expectEqual(NtfyMessageID(test)?.seq, 7)
        #expect(test != NtfyMessageID.test(after: 7))
    }

    @Test func aMessagesIdSaysWhenItsChangeWasWrittenSoTheSameSeqAfterARestoreIsAnotherId() throws {
        let written = try #require(ISOTime.date(from: "2026-11-25T08:05:00.123Z"))
        let id = NtfyMessageID.of(seq: 120, at: written)
        #expect(id.hasPrefix("h120-m"))
        #expect(id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") })
        expectEqual(NtfySince.parse(id), .after(seq: 120, at: written))
        #expect(id != NtfyMessageID.of(seq: 120, at: written.addingTimeInterval(0.001)))
    }

    @Test func anSOSReadsInTheHouseholdsLanguageAndSaysWhoIsComing() throws {
        let raised = try #require(ISOTime.date(from: "2026-11-25T08:05:00Z"))
        var sos = CareAlert(kind: .sos, audience: .caregivers, personId: UUID.random(), raisedBy: "device:x", raisedAt: raised,
                            details: ["personName": "Zosia"])
        let warsaw = try #require(TimeZone(identifier: "Europe/Warsaw"))
        let english = AlertWording(language: .english, timeZone: warsaw)
        let polish = AlertWording(language: .polish, timeZone: warsaw)
        expectEqual(english.message(sos), "Zosia needs help! (SOS at 09:05)")
        expectEqual(polish.message(sos), "Zosia potrzebuje pomocy! (SOS o 09:05)")
        expectEqual(AlertPriority.of(sos), 5)
        sos.respondedAt = raised
        sos.details = ["personName": "Zosia", "respondedByName": "Anna"]
        #expect(english.message(sos).hasSuffix("Anna is on the way."))
        expectEqual(polish.spoken(sos), "Anna jest w drodze.")
        expectEqual(AlertPriority.of(sos), 3)
        // Her OK once Anna is on the way only says she saw it: no cancelling.
        sos.acknowledgedAt = raised
        sos.acknowledgedBy = sos.personId
        #expect(!sos.isCancelledByItsSenior && english.title(sos) == "SOS")
        // Cancelled by Zosia herself before anyone answered: the news that
        // all is well, in both languages, without an alarm.
        sos.respondedAt = nil
        sos.acknowledgedAt = raised
        sos.acknowledgedBy = sos.personId
        #expect(english.title(sos) == "SOS cancelled" && polish.title(sos) == "SOS odwołane")
        expectEqual(english.message(sos), "Zosia cancelled the SOS: all is well.")
        expectEqual(polish.spoken(sos), "Zosia: SOS odwołane, wszystko w porządku.")
        #expect(AlertPriority.of(sos) == 3 && AlertPriority.tags(sos) == ["white_check_mark"])
    }

    @Test func aDueDoseIsSpokenToTheSeniorByNameWithTheAmount() throws {
        let due = CareAlert(kind: .doseDue, audience: .senior, personId: UUID.random(), raisedBy: "hub", raisedAt: Date(),
                            details: ["personName": "Zosia", "medicationName": "Metformin", "amount": .number(1), "unit": "tablet",
                                      "plannedTime": "08:00"])
        let english = AlertWording(language: .english, timeZone: .gmt)
        expectEqual(english.spoken(due), "Zosia, it is time for Metformin, one tablet.")
        expectEqual(english.message(due), "Zosia: time for Metformin, 1 tablet (08:00)")
        expectEqual(AlertWording(language: .polish, timeZone: .gmt).spoken(due), "Zosia, pora na lek Metformin, jedna tabletka.")
        expectEqual(AlertPriority.of(due), 3)
        var missed = due
        missed.kind = .doseMissed
        expectEqual(AlertPriority.of(missed), 4)
        var low = due
        low.kind = .lowStock
        #expect(AlertPriority.of(low) == 2 && english.spoken(low) == nil)
    }

    @Test func anAlertReadsBackFromItsJSONAsTheLogKeepsIt() throws {
        let alert = CareAlert(kind: .doseMissed, audience: .caregivers, personId: UUID.random(), doseId: UUID.random(),
                              medicationId: UUID.random(), raisedBy: "hub", raisedAt: Date(millisecondsSince1970: 1_700_000_000_123),
                              repeats: 2, details: ["medicationName": "Metformin"], acknowledgedAt: Date(millisecondsSince1970: 1_700_000_100_000),
                              acknowledgedBy: UUID.random())
        expectEqual(CareAlert(json: alert.json), alert)
        #expect(CareAlert(json: ["kind": "sos"]) == nil)
    }
}
