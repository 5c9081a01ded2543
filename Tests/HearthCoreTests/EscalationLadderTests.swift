import Foundation
import HearthCore
import HearthTestSupport
import Testing

/// The escalation ladder: who is told away from home, by what, and when.
struct EscalationLadderTests {
    let warsaw = TimeZone(identifier: "Europe/Warsaw")!
    let settings = EscalationSettings()
    let anna = EscalationLadder.Recipient(id: UUID.random(), phone: "+48600100200", away: AwayChoice(sms: true, push: true))
    let piotr = EscalationLadder.Recipient(id: UUID.random(), phone: "+48600100300", away: AwayChoice(sms: false, push: true))
    // Chose texts but keeps no number: nothing can be texted to her.
    let ela = EscalationLadder.Recipient(id: UUID.random(), phone: nil, away: AwayChoice(sms: true, push: false))
    // At home all day: chose nothing.
    let jan = EscalationLadder.Recipient(id: UUID.random(), phone: "+48600100400", away: AwayChoice())
    let neighbour = EscalationLadder.Recipient.contact(id: UUID.random(), phone: "+48600100500")

    func at(_ text: String) throws -> Date { try #require(ISOTime.date(from: text)) }

    func alert(_ kind: CareAlert.Kind, raisedAt: Date) -> CareAlert {
        CareAlert(kind: kind, audience: kind == .doseDue ? .senior : .caregivers, personId: UUID.random(), raisedBy: "hub", raisedAt: raisedAt)
    }

    func step(_ alert: CareAlert, sent: Set<EscalationLadder.Sent> = [], at now: Date, quiet: QuietHours? = nil) -> EscalationLadder.Step {
        EscalationLadder.step(for: alert, carers: [anna, piotr, ela, jan], contacts: [neighbour], sent: sent, at: now,
                              settings: settings, quietHours: quiet, timeZone: warsaw)
    }

    @Test func anSOSTellsEachCaregiverAtOnceByWhatSheChoseAndTheNeighbourTenMinutesLater() throws {
        let raised = try at("2026-11-28T09:00:00Z")
        let sos = alert(.sos, raisedAt: raised)
        let first = step(sos, at: raised)
        expectEqual(first.send.map(\.channel), [.sms, .push, .push])
        expectEqual(first.send.map(\.recipient), [anna.id, anna.id, piotr.id])
        expectEqual(first.nextCheck, raised.addingTimeInterval(600))
        // Nothing is sent twice, however often it is asked.
        let sent = Set(first.send.map(\.sent))
        #expect(step(sos, sent: sent, at: raised.addingTimeInterval(60)).send.isEmpty)
        let later = step(sos, sent: sent, at: raised.addingTimeInterval(600))
        expectEqual(later.send, [EscalationLadder.Rung(channel: .contact, recipient: neighbour.id, at: raised.addingTimeInterval(600))])
        #expect(later.nextCheck == nil)
        expectEqual(step(sos, sent: sent.union(later.send.map(\.sent)), at: raised.addingTimeInterval(3600)), .init(send: [], nextCheck: nil))
    }

    @Test func theFirstAnswerStopsTheLadderNobodyIsTextedAfterIt() throws {
        let raised = try at("2026-11-28T09:00:00Z")
        var sos = alert(.sos, raisedAt: raised)
        let sent = Set(step(sos, at: raised).send.map(\.sent))
        sos.respondedAt = raised.addingTimeInterval(120)
        expectEqual(step(sos, sent: sent, at: raised.addingTimeInterval(600)), .init(send: [], nextCheck: nil), "Anna is on her way")
        var acknowledged = alert(.sos, raisedAt: raised)
        acknowledged.acknowledgedAt = raised.addingTimeInterval(30)
        #expect(step(acknowledged, at: raised.addingTimeInterval(600)).send.isEmpty, "closed before anything went")
    }

    @Test func aMissedDoseWaitsFifteenMinutesForAnAnswerAtHomeAndNeverReachesAContact() throws {
        let raised = try at("2026-11-28T09:00:00Z")
        let missed = alert(.doseMissed, raisedAt: raised)
        let waiting = step(missed, at: raised.addingTimeInterval(14 * 60))
        #expect(waiting.send.isEmpty && waiting.nextCheck == raised.addingTimeInterval(15 * 60))
        let due = step(missed, at: raised.addingTimeInterval(15 * 60))
        #expect(due.send.map(\.channel) == [.sms, .push, .push] && due.nextCheck == nil)
        #expect(!due.send.contains { $0.recipient == neighbour.id })
    }

    @Test func quietHoursHoldADosesTextsUntilMorningButNeverAnSOS() throws {
        let quiet = try #require(QuietHours("22:00-07:00"))
        // 23:50 in Warsaw (UTC+1): its rung at 00:05 falls in the night.
        let raised = try at("2026-11-28T22:50:00Z")
        let missed = alert(.doseMissed, raisedAt: raised)
        let held = step(missed, at: raised.addingTimeInterval(15 * 60), quiet: quiet)
        let morning = try at("2026-11-29T06:00:00Z")  // 07:00 in Warsaw
        #expect(held.send.isEmpty && held.nextCheck == morning)
        expectEqual(step(missed, at: morning, quiet: quiet).send.count, 3)
        let sos = alert(.sos, raisedAt: raised)
        expectEqual(step(sos, at: raised, quiet: quiet).send.count, 3, "an SOS at night goes at once")
    }

    @Test func lowStockTheClockAndADueDoseAreNeverSentAwayFromHome() throws {
        let raised = try at("2026-11-28T09:00:00Z")
        for kind in [CareAlert.Kind.lowStock, .clock, .doseDue] {
            expectEqual(step(alert(kind, raisedAt: raised), at: raised.addingTimeInterval(86_400)), .init(send: [], nextCheck: nil), "\(kind)")
        }
    }

    @Test func aHubAskingEveryMinuteFromAnyMomentSendsEachRungExactlyOnce() throws {
        let raised = try at("2026-11-28T09:00:00Z")
        let sos = alert(.sos, raisedAt: raised)
        // A hub that was down for the first three minutes, then asks each minute.
        var sent: [EscalationLadder.Sent] = []
        for minute in 3...30 {
            sent += step(sos, sent: Set(sent), at: raised.addingTimeInterval(TimeInterval(minute * 60))).send.map(\.sent)
        }
        expectEqual(sent.count, Set(sent).count, "never twice")
        #expect(Set(sent) == [.init(channel: .sms, recipient: anna.id), .init(channel: .push, recipient: anna.id),
                              .init(channel: .push, recipient: piotr.id), .init(channel: .contact, recipient: neighbour.id)])
    }

    @Test func quietHoursEndAtTheWallClocksTimeEvenOnTheNightTheClocksChange() throws {
        let quiet = try #require(QuietHours("22:00-07:00"))
        // 25 October 2026: Warsaw goes from UTC+2 to UTC+1 at 03:00.
        let beforeTheChange = try at("2026-10-24T21:30:00Z"), sevenAfterIt = try at("2026-10-25T06:00:00Z")
        expectEqual(quiet.end(ofStretchHolding: beforeTheChange, in: warsaw), sevenAfterIt)
        // Outside the stretch: the moment itself.
        let noon = try at("2026-11-28T11:00:00Z")
        expectEqual(quiet.end(ofStretchHolding: noon, in: warsaw), noon)
        // Before midnight and after it, the same morning.
        let justBefore = try at("2026-11-28T05:59:00Z"), seven = try at("2026-11-28T06:00:00Z")
        expectEqual(quiet.end(ofStretchHolding: justBefore, in: warsaw), seven)
    }

    @Test func aRungLongPastItsTimeIsDroppedNotSentLate() throws {
        let raised = try at("2026-11-28T09:00:00Z")
        // A hub that was off for three hours says nothing of a missed dose now…
        expectEqual(step(alert(.doseMissed, raisedAt: raised), at: raised.addingTimeInterval(3 * 3600)), .init(send: [], nextCheck: nil))
        // …but an SOS still unanswered then is still sent, until half a day has passed.
        expectEqual(step(alert(.sos, raisedAt: raised), at: raised.addingTimeInterval(3 * 3600)).send.count, 4)
        #expect(step(alert(.sos, raisedAt: raised), at: raised.addingTimeInterval(13 * 3600)).send.isEmpty)
    }
}
