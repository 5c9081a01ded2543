import Foundation
@testable import HearthAlerts
import HearthCore
@testable import HearthStore
import HearthTestSupport
import Logging
import Testing

/// Caregivers away from home are texted through the real gammu-smsd (on
/// gammu's dummy phone): who is texted, when, never twice, and how a reply
/// answers the alert.
@Suite(.serialized) struct AwayFromHomeTests {
    let clock = Locked(ISOTime.date(from: "2026-11-28T09:00:00Z")!)

    /// Anna (Zosia's caregiver) chose texts and keeps a number; Ela looks
    /// after Zosia too but chose nothing; Piotr chose texts but looks after Jan.
    func home() async throws -> (AlertHome, ela: Person) {
        let home = try await AlertHome(clock: clock)
        let store = home.store
        let ela = try await store.addPerson(name: "Ela", role: .caregiver, as: .hubTerminal, by: "test")
        try await store.link(caregiver: ela.id, senior: home.zosia.id, as: .hubTerminal, by: "test")
        for (person, phone) in [(home.anna, "+48 600 100 200"), (ela, "+48600100300"), (home.piotr, "600-100-400")] {
            _ = try await store.updatePerson(id: person.id, PersonChange(phone: .some(phone)), as: .hubTerminal, by: "test")
        }
        _ = try await store.setAwayChoice(of: home.anna.id, AwayChoice(sms: true), as: try await home.actor(home.anna), by: "test")
        _ = try await store.setAwayChoice(of: home.piotr.id, AwayChoice(sms: true), as: try await home.actor(home.piotr), by: "test")
        return (home, ela)
    }

    func service(_ store: HearthStore, config: String, limit: Int = 100, status: AwayStatus? = nil) -> AwayFromHomeService {
        let sms = SMSSettings(enabled: true, smsdConfig: config, monthlyLimit: limit)
        return AwayFromHomeService(store: store, sms: sms, quietHours: nil, status: status ?? AwayStatus(sms: sms),
                                   logger: Logger(label: "test"))
    }

    func advance(_ seconds: TimeInterval) { clock.withLock { $0 = $0.addingTimeInterval(seconds) } }

    @Test func anSOSIsTextedAtOnceToTheCaregiverWhoChoseItOnceAndHerReplyAnswersIt() async throws {
        let (home, _) = try await home()
        let store = home.store
        let modem = try DummyModem()
        defer { modem.stop() }
        let sos = try await store.raiseSOS(for: home.zosia.id, as: PermissionPolicy.Actor(personId: home.zosia.id, role: .senior), by: "device:tablet")

        let first = try await service(store, config: modem.config.path).pass()
        expectEqual(first.due.count, 1, "Anna only: Ela chose nothing, Piotr does not look after Zosia")
        let texted = try await modem.sent(count: 1)
        let message = try #require(try await store.awayMessages(ofAlert: sos.id).first)
        let code = try #require(message.code)
        #expect(texted == [DummyModem.Sent(number: "+48600100200",
                                           text: "SOS from home: Zosia needs help (10:00). Reply 1 \(code) if you are on your way.")])
        #expect(message.state == .sent && message.recipientName == "Anna")

        // Asked again, or by a hub restarted in the middle: nothing twice.
        #expect(try await service(store, config: modem.config.path).pass().due.isEmpty)
        advance(60)
        #expect(try await service(store, config: modem.config.path).pass().due.isEmpty)
        try await Task.sleep(for: .seconds(2))
        try await expectEqual(modem.sent(count: 1).count, 1)

        // Only her number and her code act; the right reply answers as her.
        #expect(try await store.takeTextReply(from: "+48600100400", reply: (true, code), at: clock.withLock { $0 }) == .unknownCode)
        #expect(try await store.takeTextReply(from: "+48600100200", reply: (true, "0000"), at: clock.withLock { $0 }) == .unknownCode)
        #expect(try await store.takeTextReply(from: "+48600100200", reply: nil, at: clock.withLock { $0 }) == .notAReply)
        #expect(try await store.alert(id: sos.id)?.respondedAt == nil, "nothing acted")
        let before = try await store.latestSeq()
        #expect(try await store.takeTextReply(from: "+48 600100200", reply: (true, code), at: clock.withLock { $0 })
            == .answered(alertId: sos.id, by: "Anna", onMyWay: true))
        let answered = try #require(try await store.alert(id: sos.id))
        #expect(answered.respondedBy == home.anna.id && answered.details.field("respondedByName") == "Anna")
        #expect(try await store.changes(after: before, limit: 10).contains { $0.entity == .alert }, "the tablet and the voice hear it")
        try await expectEqual(store.awayMessages(ofAlert: sos.id).first?.state, .answered)
        try await expectEqual(store.recipientName("text:\(message.id.text)"), "text message")
        // The code is used up.
        #expect(try await store.takeTextReply(from: "+48600100200", reply: (false, code), at: clock.withLock { $0 }) == .unknownCode)
    }

    @Test func theEmergencyContactIsTextedOnlyWhenNobodyAnsweredForTenMinutesWithoutACode() async throws {
        let (home, _) = try await home()
        let store = home.store
        let modem = try DummyModem()
        defer { modem.stop() }
        let neighbour = EmergencyContact(id: UUID.random(), name: "Pani Halina", phone: "+48 600 100 900")
        _ = try await store.setEmergencyContacts([neighbour], as: .hubTerminal, by: "test")
        let sos = try await store.raiseSOS(for: home.zosia.id, as: PermissionPolicy.Actor(personId: home.zosia.id, role: .senior), by: "device:tablet")
        let away = service(store, config: modem.config.path)
        let first = try await away.pass()
        expectEqual(first.due.map(\.message.channel), [.sms])
        #expect(first.nextCheck == clock.withLock { $0 }.addingTimeInterval(600))
        advance(9 * 60)
        #expect(try await away.pass().due.isEmpty)
        advance(60)
        try await expectEqual(away.pass().due.map(\.message.channel), [.contact])
        let sent = try await modem.sent(count: 2)
        let contact = try #require(sent.first { $0.number == "+48600100900" })
        expectEqual(contact.text, "SOS from Hearth (Home): Zosia has needed help since 10:00 and nobody at home has answered yet.")
        try await expectEqual(store.awayMessages(ofAlert: sos.id).map(\.recipientName), ["Anna", "Pani Halina"])
    }

    @Test func anAnswerAtHomeFirstMeansNoTextAndAnSOSIsNeverHeldByTheMonthlyLimit() async throws {
        let (home, _) = try await home()
        let store = home.store
        let modem = try DummyModem()
        defer { modem.stop() }
        _ = try await store.setEmergencyContacts([EmergencyContact(id: UUID.random(), name: "Halina", phone: "+48600100900")],
                                                 as: .hubTerminal, by: "test")
        // A limit of one text: the first SOS uses it, the second still goes.
        let away = service(store, config: modem.config.path, limit: 1)
        let sos = try await store.raiseSOS(for: home.zosia.id, as: PermissionPolicy.Actor(personId: home.zosia.id, role: .senior), by: "device:tablet")
        try await expectEqual(away.pass().due.count, 1)
        _ = try await store.respondToAlert(id: sos.id, as: try await home.actor(home.anna), by: "device:phone")
        advance(11 * 60)
        #expect(try await away.pass().due.isEmpty, "Anna is on her way: the neighbour is not texted")
        let second = try await store.raiseSOS(for: home.zosia.id, as: PermissionPolicy.Actor(personId: home.zosia.id, role: .senior), by: "device:tablet")
        try await expectEqual(away.pass().due.count, 1)
        _ = try await modem.sent(count: 2)
        _ = try await store.acknowledgeAlert(id: second.id, as: try await home.actor(home.anna), by: "device:phone")

        // A missed dose is held by it, and says so.
        let missed = CareAlert(kind: .doseMissed, audience: .caregivers, personId: home.zosia.id, raisedBy: "hub",
                               raisedAt: clock.withLock { $0 }, details: ["personName": "Zosia", "medicationName": "Metformina"])
        try await store.write(by: "hub") { transaction in try HearthStore.insertAlert(missed, onceKey: nil, in: &transaction) }
        advance(15 * 60)
        #expect(try await away.pass().due.isEmpty)
        let held = try #require(try await store.awayMessages(ofAlert: missed.id).first)
        #expect(held.state == .failed && held.problem == "monthly limit of 1 texts reached")
        try await expectEqual(store.awayMessages(ofAlert: second.id).first?.state, .sent)
    }

    @Test func aModemThatIsNotThereIsTriedAgainWithBackoffAndTheAdminsToldOnce() async throws {
        let (home, _) = try await home()
        let store = home.store
        let directory = try TemporaryDirectory()
        let missingConfig = directory.url.appendingPathComponent("no-smsdrc").path
        let status = AwayStatus(sms: SMSSettings(enabled: true))
        let sos = try await store.raiseSOS(for: home.zosia.id, as: PermissionPolicy.Actor(personId: home.zosia.id, role: .senior), by: "device:tablet")
        let broken = try await service(store, config: missingConfig, status: status).pass()
        #expect(broken.nextCheck == clock.withLock { $0 }.addingTimeInterval(5), "tried again in 5 s")
        let waiting = try #require(try await store.awayMessages(ofAlert: sos.id).first)
        #expect(waiting.state == .queued && waiting.attempts == 1 && waiting.problem != nil)
        #expect(status.summary.smsProblem != nil)
        expectEqual(status.textFailed("again"), false, "told once")
        #expect(try await service(store, config: missingConfig, status: status).pass().due.isEmpty, "not before its time")

        // The modem is plugged in: the next try goes, once.
        let modem = try DummyModem()
        defer { modem.stop() }
        advance(5)
        try await expectEqual(service(store, config: modem.config.path, status: status).pass().due.count, 1)
        try await expectEqual(modem.sent(count: 1).count, 1)
        try await expectEqual(store.awayMessages(ofAlert: sos.id).first?.state, .sent)
    }

    @Test func aCaregiverUnlinkedAfterHerTextCannotAnswerWithItAndAFloodIsTurnedAway() async throws {
        let (home, _) = try await home()
        let store = home.store
        let modem = try DummyModem()
        defer { modem.stop() }
        let sos = try await store.raiseSOS(for: home.zosia.id, as: PermissionPolicy.Actor(personId: home.zosia.id, role: .senior), by: "device:tablet")
        _ = try await service(store, config: modem.config.path).pass()
        let code = try #require(try await store.awayMessages(ofAlert: sos.id).first?.code)
        try await store.removeCareLink(caregiver: home.anna.id, senior: home.zosia.id, as: .hubTerminal, by: "test")
        #expect(try await store.takeTextReply(from: "+48600100200", reply: (true, code), at: clock.withLock { $0 }) == .unknownCode)
        #expect(try await store.alert(id: sos.id)?.respondedAt == nil)

        // Five tries from a number in ten minutes, then nothing it sends is even read.
        for _ in 0..<5 { _ = try await store.takeTextReply(from: "+48600100777", reply: (true, "1234"), at: clock.withLock { $0 }) }
        #expect(try await store.takeTextReply(from: "+48600100777", reply: nil, at: clock.withLock { $0 }) == .tooMany)
        advance(11 * 60)
        #expect(try await store.takeTextReply(from: "+48600100777", reply: nil, at: clock.withLock { $0 }) == .notAReply)
    }
}
