import Foundation
@testable import HearthAlerts
import HearthCore
@testable import HearthStore
import HearthTestSupport
import Logging
import Testing

/// Push to caregivers away from home through an ntfy server, here a real
/// HTTP server on a loopback port standing in for ntfy.sh (no machine here
/// reaches the Internet): what is published, to whose secret topic, with
/// what the household lets the server read, tried again when the server is
/// away, and never twice.
@Suite(.serialized) struct PushTests {
    let clock = Locked(ISOTime.date(from: "2026-11-28T09:00:00Z")!)

    final class Home {
        let store: HearthStore
        let directory: TemporaryDirectory
        let zosia: Person
        let anna: Person
        let piotr: Person

        init(store: HearthStore, directory: consuming TemporaryDirectory, zosia: Person, anna: Person, piotr: Person) {
            self.store = store
            self.directory = directory
            self.zosia = zosia
            self.anna = anna
            self.piotr = piotr
        }
    }

    /// Zosia (with a phone) is looked after by Anna, who chose push; Piotr chose push but looks after nobody.
    func home() async throws -> Home {
        let directory = try TemporaryDirectory()
        let store = try HearthStore(directory: directory.url, now: { [clock] in clock.withLock { $0 } })
        try await store.ensureHousehold(name: "Home", timeZone: "Europe/Warsaw")
        let zosia = try await store.addPerson(name: "Babcia Zosia", role: .senior, as: .hubTerminal, by: "test")
        let anna = try await store.addPerson(name: "Anna", role: .caregiver, as: .hubTerminal, by: "test")
        let piotr = try await store.addPerson(name: "Piotr", role: .caregiver, as: .hubTerminal, by: "test")
        _ = try await store.updatePerson(id: zosia.id, PersonChange(phone: .some("+48 600 100 100")), as: .hubTerminal, by: "test")
        try await store.link(caregiver: anna.id, senior: zosia.id, as: .hubTerminal, by: "test")
        for person in [anna, piotr] {
            let actor = try #require(try await store.actor(of: person.id))
            _ = try await store.setAwayChoice(of: person.id, AwayChoice(push: true), as: actor, by: "test")
        }
        return Home(store: store, directory: directory, zosia: zosia, anna: anna, piotr: piotr)
    }

    func service(_ store: HearthStore, server: Int, content: PushSettings.Content = .kindOnly,
                 status: AwayStatus? = nil) -> AwayFromHomeService {
        let push = PushSettings(enabled: true, server: "http://127.0.0.1:\(server)", content: content)
        return AwayFromHomeService(store: store, sms: SMSSettings(), push: push, quietHours: nil,
                                   status: status ?? AwayStatus(sms: SMSSettings(), push: push), logger: Logger(label: "test"))
    }

    func json(_ request: WebhookReceiver.Received) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: request.body) as? [String: Any])
    }

    @Test func anSOSIsPushedAtOnceToHerSecretTopicSayingOnlyTheKindAndWhomToCall() async throws {
        let home = try await home()
        defer { try? home.store.close() }
        let server = try await WebhookReceiver(answers: [])
        defer { server.stop() }
        let sos = try await home.store.raiseSOS(for: home.zosia.id, as: PermissionPolicy.Actor(personId: home.zosia.id, role: .senior), by: "device:tablet")
        try await expectEqual(service(home.store, server: server.port).pass().due.count, 1, "Anna only: Piotr looks after someone else")
        let request = try #require(try await server.waitForRequests(1).first)
        #expect(request.method == "POST" && request.uri == "/" && request.contentType == "application/json")
        let body = try json(request)
        let topic = try #require(try await home.store.pushTopic(of: home.anna.id))
        #expect(body["topic"] as? String == topic)
        #expect(body["priority"] as? Int == 5)
        #expect(body["message"] as? String == "SOS from home: call Babcia Zosia")
        let actions = try #require(body["actions"] as? [[String: Any]])
        #expect(actions.first?["action"] as? String == "view" && actions.first?["url"] as? String == "tel:+48600100100")
        expectEqual(request.headers["user-agent"]?.hasPrefix("Hearth/"), true)
        try await expectEqual(home.store.awayMessages(ofAlert: sos.id).map(\.state), [.sent])
        // Never twice, even from a hub started again.
        #expect(try await service(home.store, server: server.port).pass().due.isEmpty)
        try await Task.sleep(for: .milliseconds(300))
        expectEqual(server.requests.count, 1)
    }

    @Test func aServerThatIsDownOrBusyIsTriedAgainAndOneThatRefusesIsNot() async throws {
        let home = try await home()
        defer { try? home.store.close() }
        // Nothing listens on this port: the Internet is down.
        let nobody = try await WebhookReceiver(answers: [])
        let closedPort = nobody.port
        nobody.stop()
        try await Task.sleep(for: .milliseconds(100))
        let status = AwayStatus(sms: SMSSettings(), push: PushSettings(enabled: true))
        let sos = try await home.store.raiseSOS(for: home.zosia.id, as: PermissionPolicy.Actor(personId: home.zosia.id, role: .senior), by: "device:tablet")
        let down = try await service(home.store, server: closedPort, status: status).pass()
        #expect(down.nextCheck == clock.withLock { $0 }.addingTimeInterval(5))
        try await expectEqual(home.store.awayMessages(ofAlert: sos.id).first?.state, .queued)
        expectEqual(status.summary.pushProblem?.contains("cannot be reached"), true)

        // Back, but busy (429), then well.
        let server = try await WebhookReceiver(answers: [429])
        defer { server.stop() }
        clock.withLock { $0 = $0.addingTimeInterval(5) }
        _ = try await service(home.store, server: server.port, status: status).pass()
        let waiting = try #require(try await home.store.awayMessages(ofAlert: sos.id).first)
        #expect(waiting.state == .queued && waiting.problem == "the push server answered 429" && waiting.attempts == 2)
        clock.withLock { $0 = $0.addingTimeInterval(10) }
        _ = try await service(home.store, server: server.port, status: status).pass()
        try await expectEqual(home.store.awayMessages(ofAlert: sos.id).first?.state, .sent)
        #expect(status.summary.pushProblem == nil && status.summary.lastPush != nil)

        // A refusal of the request itself (403: a topic the server reserves) is not repeated.
        let refusing = try await WebhookReceiver(answers: [403])
        defer { refusing.stop() }
        let second = try await home.store.raiseSOS(for: home.zosia.id, as: PermissionPolicy.Actor(personId: home.zosia.id, role: .senior), by: "device:tablet")
        _ = try await service(home.store, server: refusing.port, status: status).pass()
        let refused = try #require(try await home.store.awayMessages(ofAlert: second.id).first)
        #expect(refused.state == .failed && refused.problem == "the push server answered 403")
    }

    @Test func theFullTextGoesOnlyWhenTheHouseholdChoseItAndARemovedPhonesTopicIsMadeAnew() async throws {
        let home = try await home()
        defer { try? home.store.close() }
        let server = try await WebhookReceiver(answers: [])
        defer { server.stop() }
        _ = try await home.store.raiseSOS(for: home.zosia.id, as: PermissionPolicy.Actor(personId: home.zosia.id, role: .senior), by: "device:tablet")
        _ = try await service(home.store, server: server.port, content: .full).pass()
        let request = try #require(try await server.waitForRequests(1).first)
        #expect(try json(request)["message"] as? String == "Babcia Zosia needs help! (SOS at 10:00)")

        // Her phone is removed: the topic it may know stops.
        let before = try #require(try await home.store.pushTopic(of: home.anna.id))
        let invitation = try await home.store.createPairing(for: .person(home.anna.id), deviceName: nil, by: "cli", maker: .hubTerminal)
        let (phone, _) = try await home.store.redeemPairing(.secret(invitation.code.secret), deviceName: "Anna's phone", userAgent: nil)
        try await home.store.revokeDevice(id: phone.device.id, as: .hubTerminal, by: "test")
        let after = try #require(try await home.store.pushTopic(of: home.anna.id))
        #expect(after != before && after.hasPrefix("hearth-") && after.count >= 7 + 22)
    }

    @Test func thePollRequestForThePhonesAtHomeIsTheHashOfTheTopicsAddressAsNtfyMakesIt() async throws {
        let server = try await WebhookReceiver(answers: [])
        defer { server.stop() }
        try await PushSender(server: "http://127.0.0.1:\(server.port)")
            .pollRequest(topicURL: "http://192.168.1.20:8080/ntfy/sos", messageId: "h42x1")
        let request = try #require(try await server.waitForRequests(1).first)
        // sha256("http://192.168.1.20:8080/ntfy/sos"), as `printf %s … | sha256sum` gives it.
        expectEqual(request.uri, "/" + PushSender.pollTopic("http://192.168.1.20:8080/ntfy/sos"))
        expectEqual(PushSender.pollTopic("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(request.headers["x-poll-id"] == "h42x1" && request.body.isEmpty)
    }
}
