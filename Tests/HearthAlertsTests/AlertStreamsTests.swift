import Foundation
@testable import HearthAlerts
import HearthCore
import HearthStore
import Logging
import Testing

/// Alert apps' streams on a real store: who hears what, replay, closing.
struct AlertStreamsTests {
    @Test func anSOSReachesTheLinkedCaregiverAtTopPriorityAndNoOneElse() async throws {
        let home = try await AlertHome()
        let anna = StreamRecorder(try await home.streams.open(try await home.reader(for: home.anna, topics: [.sos, .doses]), since: .none))
        let piotr = StreamRecorder(try await home.streams.open(try await home.reader(for: home.piotr), since: .none))
        #expect(await anna.wait { $0.events.withLock { $0.first?.kind == .open && $0.first?.topic == "sos,doses" } })

        let sos = try await home.store.raiseSOS(for: home.zosia.id, raisedBy: home.zosia.id, by: "device:tablet")
        #expect(await anna.wait { $0.messages.count == 1 })
        let message = try #require(anna.messages.first)
        #expect(message.topic == "sos" && message.priority == 5 && message.sequenceId == sos.id.text)
        #expect(message.message?.hasPrefix("Zosia needs help!") == true)
        #expect(message.click == "http://192.0.2.1:8080/#/alerts")
        #expect(message.actions.map(\.id) == ["respond", "acknowledge"])
        #expect(message.actions.allSatisfy { $0.url.hasPrefix("http://192.0.2.1:8080/ntfy/actions/\(sos.id.text)/") })

        // Piotr looks after Jan only: nothing of Zosia reaches him, on any topic.
        try await Task.sleep(for: .milliseconds(200))
        #expect(piotr.messages.isEmpty)
    }

    @Test func anAcknowledgedAlertClearsTheSameNotification() async throws {
        let home = try await AlertHome()
        let anna = StreamRecorder(try await home.streams.open(try await home.reader(for: home.anna), since: .none))
        let sos = try await home.store.raiseSOS(for: home.zosia.id, raisedBy: home.zosia.id, by: "device:tablet")
        _ = try await home.store.respondToAlert(id: sos.id, as: try await home.actor(home.anna), by: "test")
        _ = try await home.store.acknowledgeAlert(id: sos.id, as: try await home.actor(home.anna), by: "test")
        #expect(await anna.wait { $0.messages.count == 3 })
        let (raised, answered, cleared) = (anna.messages[0], anna.messages[1], anna.messages[2])
        #expect(answered.kind == .message && answered.priority == 3 && answered.message?.hasSuffix("Anna is on the way.") == true)
        #expect(answered.actions.map(\.id) == ["acknowledge"])
        #expect(cleared.kind == .clear && cleared.topic == raised.topic)
        #expect(Set([raised.sequenceId, answered.sequenceId, cleared.sequenceId]) == [sos.id.text])
        #expect(Set([raised.id, answered.id, cleared.id]).count == 3)
    }

    @Test func aPhoneThatWasAwayGetsWhatItMissedOnceInOrder() async throws {
        let home = try await AlertHome()
        let reader = try await home.reader(for: home.anna)
        let first = try await home.store.raiseSOS(for: home.zosia.id, raisedBy: home.zosia.id, by: "test")
        let missed = try await home.streams.poll(reader, since: .all)
        #expect(missed.map(\.sequenceId) == [first.id.text])
        let lastSeen = try #require(missed.last?.id)

        // Away: another SOS, and Jan's, which Anna may not see.
        _ = try await home.store.raiseSOS(for: home.jan.id, raisedBy: home.jan.id, by: "test")
        let second = try await home.store.raiseSOS(for: home.zosia.id, raisedBy: home.zosia.id, by: "test")
        let since = try #require(NtfySince.parse(lastSeen))
        #expect(try await home.streams.poll(reader, since: since).map(\.sequenceId) == [second.id.text])
        let back = StreamRecorder(try await home.streams.open(reader, since: since))
        #expect(await back.wait { $0.messages.count == 1 })
        try await Task.sleep(for: .milliseconds(100))
        #expect(back.messages.map(\.sequenceId) == [second.id.text])
        #expect(try await home.streams.poll(reader, since: NtfySince.none).isEmpty)
    }

    @Test func aCareLinkMadeBeforeTheStreamIsNotTakenForANewOneWhenReplayed() async throws {
        let home = try await AlertHome()
        // `all` replays the day, care links included: they made Anna who she is, they do not end her stream.
        let anna = StreamRecorder(try await home.streams.open(try await home.reader(for: home.anna), since: .all))
        let sos = try await home.store.raiseSOS(for: home.zosia.id, raisedBy: home.zosia.id, by: "test")
        #expect(await anna.wait { $0.messages.map(\.sequenceId) == [sos.id.text] })
        #expect(!anna.ended.withLock { $0 })
        // A link made now does: the phone reconnects as who she is now.
        try await home.store.link(caregiver: home.anna.id, senior: home.jan.id, as: .hubTerminal, by: "test")
        #expect(await anna.wait { $0.ended.withLock { $0 } })
    }

    @Test func revokingTheCredentialOrArchivingThePersonClosesTheStream() async throws {
        let home = try await AlertHome()
        let (app, signedIn) = try await home.app(for: home.anna)
        let revoked = StreamRecorder(try await home.streams.open(AlertReader(app: signedIn, topics: [.alerts], origin: "http://h"), since: .none))
        let other = try await home.reader(for: home.anna)
        let archived = StreamRecorder(try await home.streams.open(other, since: .none))
        try await home.store.revokeAlertApp(id: app.id, as: try await home.actor(home.anna), by: "test")
        #expect(await revoked.wait { $0.ended.withLock { $0 } })
        #expect(!archived.ended.withLock { $0 })
        #expect(try await home.store.alertApp(id: app.id) == nil)
        _ = try await home.store.archivePerson(id: home.anna.id, by: "test")
        #expect(await archived.wait { $0.ended.withLock { $0 } })
        #expect(try await home.store.alertApp(id: other.app.app.id) == nil)
        #expect(await revoked.wait { _ in home.streams.openCount == 0 })
    }

    @Test func everyStreamGetsKeepalivesNamingItsTopics() async throws {
        let home = try await AlertHome(keepalive: .milliseconds(50))
        let phone = StreamRecorder(try await home.streams.open(try await home.reader(for: home.anna, topics: [.sos, .stock]), since: .none))
        let tablet = StreamRecorder(try await home.streams.open(try await home.reader(for: home.zosia), since: .none))
        for stream in [phone, tablet] {
            #expect(await stream.wait { $0.events.withLock { $0.filter { $0.kind == .keepalive }.count >= 2 } })
        }
        #expect(phone.events.withLock { $0.last { $0.kind == .keepalive }?.topic } == "sos,stock")
    }

    @Test func oneCredentialHoldsAtMostEightStreams() async throws {
        let home = try await AlertHome()
        let reader = try await home.reader(for: home.anna)
        var open: [AlertStream] = []
        for _ in 0..<AlertStreams.maximumPerCredential { open.append(try await home.streams.open(reader, since: .none)) }
        await #expect(throws: AlertStreamRefusal.tooManyStreams(limit: 8)) {
            _ = try await home.streams.open(reader, since: .none)
        }
        // Another credential of the same person is not counted against this one.
        _ = try await home.streams.open(try await home.reader(for: home.anna), since: .none)
        #expect(open.count == 8)
    }

    @Test func aPhoneThatStopsReadingIsClosedAndTheOthersKeepHearing() async throws {
        let home = try await AlertHome(outboxLimit: 4)
        let stalled = try await home.streams.open(try await home.reader(for: home.anna), since: .none)
        let reading = StreamRecorder(try await home.streams.open(try await home.reader(for: home.anna), since: .none))
        for _ in 0..<10 { _ = try await home.store.raiseSOS(for: home.zosia.id, raisedBy: home.zosia.id, by: "test") }
        #expect(await reading.wait { $0.messages.count == 10 })
        // The stalled one got what fitted, then was closed: it reconnects with its last id.
        var received = 0
        for await event in stalled where event.kind == .message { received += 1 }
        #expect(received < 10)
    }
}

/// Where an alert went is kept for its history, named as the household knows each recipient.
struct AlertDeliveryTests {
    @Test func whatTheStreamsWroteIsKeptWithTheAppsNameAndWhereTheAnswerCameFrom() async throws {
        let home = try await AlertHome()
        let reader = try await home.reader(for: home.anna)
        let stream = try await home.streams.open(reader, since: .none)
        let sos = try await home.store.raiseSOS(for: home.zosia.id, raisedBy: home.zosia.id, by: "test")
        for await event in stream where event.kind == .message {
            stream.written(event)
            break
        }
        let acknowledged = try await home.store.acknowledgeAlert(id: sos.id, as: try await home.actor(home.anna),
                                                                 by: "alert-app:\(reader.app.app.id.text)")
        await DeliveryRecorder(store: home.store, board: home.streams.deliveries, logger: .init(label: "test")).flush()
        let kept = try await home.store.deliveries(ofAlert: sos.id)
        #expect(kept.map(\.channel) == ["alert-app"] && kept.map(\.recipient) == ["phone"])
        #expect(acknowledged.details.field("acknowledgedFrom") == .string("alert-app:\(reader.app.app.id.text)"))
        #expect(try await home.store.recipientName("alert-app:\(reader.app.app.id.text)") == "phone")
        // Handed over once: a second flush keeps nothing twice.
        await DeliveryRecorder(store: home.store, board: home.streams.deliveries, logger: .init(label: "test")).flush()
        #expect(try await home.store.deliveries(ofAlert: sos.id).count == 1)
    }
}
