import Foundation
@testable import HearthAlerts
import HearthCore
import HearthStore
import Logging
import HearthTestSupport
import Testing

/// Alert apps' streams on a real store: who hears what, replay, closing.
struct AlertStreamsTests {
    @Test func anSOSReachesTheLinkedCaregiverAtTopPriorityAndNoOneElse() async throws {
        let home = try await AlertHome()
        let anna = StreamRecorder(try await home.streams.open(try await home.reader(for: home.anna, topics: [.sos, .doses]), since: .none))
        let piotr = StreamRecorder(try await home.streams.open(try await home.reader(for: home.piotr), since: .none))
        #expect(await anna.wait { $0.events.withLock { $0.first?.kind == .open && $0.first?.topic == "sos,doses" } })

        let sos = try await home.store.raiseSOS(for: home.zosia.id, as: PermissionPolicy.Actor(personId: home.zosia.id, role: .senior), by: "device:tablet")
        #expect(await anna.wait { $0.messages.count == 1 })
        let message = try #require(anna.messages.first)
        #expect(message.topic == "sos" && message.priority == 5 && message.sequenceId == sos.id.text)
        expectEqual(message.message?.hasPrefix("Zosia needs help!"), true)
        expectEqual(message.click, "http://192.0.2.1:8080/#/alerts")
        expectEqual(message.actions.map(\.id), ["respond", "acknowledge"])
        #expect(message.actions.allSatisfy { $0.url.hasPrefix("http://192.0.2.1:8080/ntfy/actions/\(sos.id.text)/") })

        // Piotr looks after Jan only: nothing of Zosia reaches him, on any topic.
        try await Task.sleep(for: .milliseconds(200))
        #expect(piotr.messages.isEmpty)
    }

    @Test func anAnsweredSOSIsReplacedForTheOthersClearedForWhoAnsweredAndClearedForAllOnceClosed() async throws {
        let home = try await AlertHome()
        let anna = StreamRecorder(try await home.streams.open(try await home.reader(for: home.anna), since: .none))
        let tablet = StreamRecorder(try await home.streams.open(try await home.reader(for: home.zosia), since: .none))
        let sos = try await home.store.raiseSOS(for: home.zosia.id, as: PermissionPolicy.Actor(personId: home.zosia.id, role: .senior), by: "device:tablet")
        #expect(await anna.wait { $0.messages.count == 1 })
        // Both buttons take the notification away once the hub says yes.
        expectEqual(anna.messages[0].actions.map(\.clear), [true, true])
        _ = try await home.store.respondToAlert(id: sos.id, as: try await home.actor(home.anna), by: "test")
        _ = try await home.store.acknowledgeAlert(id: sos.id, as: try await home.actor(home.anna), by: "test")
        #expect(await tablet.wait { $0.messages.count == 3 })
        let (raised, answered, cleared) = (tablet.messages[0], tablet.messages[1], tablet.messages[2])
        #expect(answered.kind == .message && answered.priority == 3 && answered.message?.hasSuffix("Anna is on the way.") == true)
        #expect(cleared.kind == .clear && cleared.topic == raised.topic && answered.topic == raised.topic)
        expectEqual(Set([raised.sequenceId, answered.sequenceId, cleared.sequenceId]), [sos.id.text])
        expectEqual(Set([raised.id, answered.id, cleared.id]).count, 3)
        // Anna, who answered, is not shown the SOS again: her phone takes it away.
        #expect(await anna.wait { $0.messages.count == 3 })
        expectEqual(anna.messages.map(\.kind), [.message, .clear, .clear])
        expectEqual(Set(anna.messages.map(\.sequenceId)), [sos.id.text])
    }

    @Test func anSOSHerSeniorCancelledIsReplacedWithTheNewsThatAllIsWellAndTakenAwayFromHerOwnPhone() async throws {
        let home = try await AlertHome()
        let anna = StreamRecorder(try await home.streams.open(try await home.reader(for: home.anna), since: .none))
        let tablet = StreamRecorder(try await home.streams.open(try await home.reader(for: home.zosia), since: .none))
        let sos = try await home.store.raiseSOS(for: home.zosia.id, as: PermissionPolicy.Actor(personId: home.zosia.id, role: .senior), by: "device:tablet")
        #expect(await anna.wait { $0.messages.count == 1 })
        _ = try await home.store.acknowledgeAlert(id: sos.id, as: try await home.actor(home.zosia), by: "device:tablet")
        #expect(await anna.wait { $0.messages.count == 2 })
        let cancelled = anna.messages[1]
        #expect(cancelled.kind == .message && cancelled.sequenceId == sos.id.text && cancelled.topic == anna.messages[0].topic)
        #expect(cancelled.title == "SOS cancelled" && cancelled.message == "Zosia cancelled the SOS: all is well.")
        #expect(cancelled.priority == 3 && cancelled.actions.isEmpty)
        #expect(await tablet.wait { $0.messages.count == 2 })
        expectEqual(tablet.messages.map(\.kind), [.message, .clear])

        // A phone that was away hears the news, not the call: replayed, the
        // call is left out (it was taken care of), its cancelling is not.
        let back = StreamRecorder(try await home.streams.open(try await home.reader(for: home.anna, topics: [.sos]), since: .all))
        #expect(await back.wait { $0.messages.count == 1 })
        expectEqual(back.messages.map(\.title), ["SOS cancelled"])
    }

    @Test func aDueDoseOpensTodayWhereItIsAnswered() async throws {
        let home = try await AlertHome()
        let reader = try await home.reader(for: home.anna)
        var due = CareAlert(kind: .doseDue, audience: .caregivers, personId: home.zosia.id, raisedBy: "reminders", raisedAt: Date(),
                            details: ["personName": "Zosia", "medicationName": "Metformin"])
        due.id = UUID.random()
        let change = Change(seq: 7, entity: .alert, entityId: due.id.text, op: .create, payload: due.json, origin: "reminders", time: Date())
        let utc = try #require(TimeZone(identifier: "UTC"))
        let event = try #require(reader.event(for: change, wording: AlertWording(language: .english, timeZone: utc)))
        expectEqual(event.click, "http://192.0.2.1:8080/#/today")
        #expect(event.actions.isEmpty)
    }

    @Test func aPhoneThatWasAwayGetsWhatItMissedOnceInOrder() async throws {
        let home = try await AlertHome()
        let reader = try await home.reader(for: home.anna)
        let first = try await home.store.raiseSOS(for: home.zosia.id, as: PermissionPolicy.Actor(personId: home.zosia.id, role: .senior), by: "test")
        let missed = try await home.streams.poll(reader, since: .all)
        expectEqual(missed.map(\.sequenceId), [first.id.text])
        let lastSeen = try #require(missed.last?.id)

        // Away: another SOS, and Jan's, which Anna may not see.
        _ = try await home.store.raiseSOS(for: home.jan.id, as: PermissionPolicy.Actor(personId: home.jan.id, role: .senior), by: "test")
        let second = try await home.store.raiseSOS(for: home.zosia.id, as: PermissionPolicy.Actor(personId: home.zosia.id, role: .senior), by: "test")
        let since = try #require(NtfySince.parse(lastSeen))
        try await expectEqual(home.streams.poll(reader, since: since).map(\.sequenceId), [second.id.text])
        let back = StreamRecorder(try await home.streams.open(reader, since: since))
        #expect(await back.wait { $0.messages.count == 1 })
        try await Task.sleep(for: .milliseconds(100))
        expectEqual(back.messages.map(\.sequenceId), [second.id.text])
        #expect(try await home.streams.poll(reader, since: NtfySince.none).isEmpty)
    }

    @Test func aCareLinkMadeBeforeTheStreamIsNotTakenForANewOneWhenReplayed() async throws {
        let home = try await AlertHome()
        // `all` replays the day, care links included: they made Anna who she is.
        let anna = StreamRecorder(try await home.streams.open(try await home.reader(for: home.anna), since: .all))
        let sos = try await home.store.raiseSOS(for: home.zosia.id, as: PermissionPolicy.Actor(personId: home.zosia.id, role: .senior), by: "test")
        #expect(await anna.wait { $0.messages.map(\.sequenceId) == [sos.id.text] })
        #expect(!anna.ended.withLock { $0 })
    }

    @Test func aStreamHearsWhomItsPersonLooksAfterNowWithoutReconnecting() async throws {
        let home = try await AlertHome()
        let anna = StreamRecorder(try await home.streams.open(try await home.reader(for: home.anna), since: .none))
        // Linked to Jan now: his SOS reaches her on the same connection.
        try await home.store.link(caregiver: home.anna.id, senior: home.jan.id, as: .hubTerminal, by: "test")
        let jans = try await home.store.raiseSOS(for: home.jan.id, as: PermissionPolicy.Actor(personId: home.jan.id, role: .senior), by: "test")
        #expect(await anna.wait { $0.messages.map(\.sequenceId) == [jans.id.text] })
        // No longer looking after Zosia: nothing of hers, from the moment the link is undone.
        try await home.store.removeCareLink(caregiver: home.anna.id, senior: home.zosia.id, as: .hubTerminal, by: "test")
        let zosias = try await home.store.raiseSOS(for: home.zosia.id, as: PermissionPolicy.Actor(personId: home.zosia.id, role: .senior), by: "test")
        let jansAgain = try await home.store.raiseSOS(for: home.jan.id, as: PermissionPolicy.Actor(personId: home.jan.id, role: .senior), by: "test")
        #expect(await anna.wait { $0.messages.count == 2 })
        try await Task.sleep(for: .milliseconds(100))
        expectEqual(anna.messages.map(\.sequenceId), [jans.id.text, jansAgain.id.text])
        #expect(!anna.messages.contains { $0.sequenceId == zosias.id.text })
        #expect(!anna.ended.withLock { $0 })
    }

    @Test func aPhoneBackFromAwayIsNotRungForWhatWasTakenCareOfMeanwhile() async throws {
        let home = try await AlertHome()
        let reader = try await home.reader(for: home.anna)
        // The phone's last id, in the form older hubs gave (still read).
        let lastSeen = "h\(try await home.store.latestSeq())"
        // Away: an SOS raised and answered, and one still waiting.
        let handled = try await home.store.raiseSOS(for: home.zosia.id, as: PermissionPolicy.Actor(personId: home.zosia.id, role: .senior), by: "test")
        _ = try await home.store.acknowledgeAlert(id: handled.id, as: try await home.actor(home.anna), by: "test")
        let waiting = try await home.store.raiseSOS(for: home.zosia.id, as: PermissionPolicy.Actor(personId: home.zosia.id, role: .senior), by: "test")
        let since = try #require(NtfySince.parse(lastSeen))
        let polled = try await home.streams.poll(reader, since: since)
        expectEqual(polled.map(\.kind), [.clear, .message])
        expectEqual(polled.map(\.sequenceId), [handled.id.text, waiting.id.text])
        let back = StreamRecorder(try await home.streams.open(reader, since: since))
        #expect(await back.wait { $0.messages.count == 2 })
        expectEqual(back.messages.map(\.kind), [.clear, .message])
    }

    @Test func noReplayReachesFurtherBackThanADay() async throws {
        let clock = Locked(Date())
        let home = try await AlertHome(clock: clock)
        let reader = try await home.reader(for: home.anna)
        let old = try await home.store.raiseSOS(for: home.zosia.id, as: PermissionPolicy.Actor(personId: home.zosia.id, role: .senior), by: "test")
        let oldId = try #require(try await home.streams.poll(reader, since: .all).last?.id)
        clock.withLock { $0 += 2 * 86_400 }
        let recent = try await home.store.raiseSOS(for: home.zosia.id, as: PermissionPolicy.Actor(personId: home.zosia.id, role: .senior), by: "test")
        for since in [NtfySince.all, .time(Date(timeIntervalSince1970: 1)), .after(seq: 0, at: nil)] {
            try await expectEqual(home.streams.poll(reader, since: since).map(\.sequenceId), [recent.id.text], "\(since)")
        }
        // After a message it has, though: what followed it, as far as the day goes.
        try await expectEqual(home.streams.poll(reader, since: try #require(NtfySince.parse(oldId))).map(\.sequenceId), [recent.id.text])
        #expect(old.id != recent.id)
    }

    @Test func aMessageIdFromBeforeARestoreIsPlacedByItsTimeNotItsSeq() async throws {
        let clock = Locked(Date())
        let home = try await AlertHome(clock: clock)
        let reader = try await home.reader(for: home.anna)
        let first = try await home.store.raiseSOS(for: home.zosia.id, as: PermissionPolicy.Actor(personId: home.zosia.id, role: .senior), by: "test")
        let firstId = try #require(try await home.streams.poll(reader, since: .all).last?.id)
        let seq = try #require(NtfyMessageID(firstId)?.seq)
        // The phone holds an id the log will give again to another change, as
        // after a restore: its seq, written a minute from now.
        clock.withLock { $0 += 60 }
        let reused = NtfyMessageID.of(seq: seq, at: clock.withLock { $0 })
        let later = try await home.store.raiseSOS(for: home.zosia.id, as: PermissionPolicy.Actor(personId: home.zosia.id, role: .senior), by: "test")
        let since = try #require(NtfySince.parse(reused))
        try await expectEqual(home.streams.poll(reader, since: since).map(\.sequenceId), [later.id.text])
        // And an id ahead of the log is placed by its time too.
        let ahead = try #require(NtfySince.parse(NtfyMessageID.of(seq: seq + 1000, at: clock.withLock { $0 }.addingTimeInterval(-1))))
        try await expectEqual(home.streams.poll(reader, since: ahead).map(\.sequenceId), [later.id.text])
        #expect(first.id != later.id)
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
        _ = try await home.store.archivePerson(id: home.anna.id, as: .hubTerminal, by: "test")
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
        let (_, app) = try await home.app(for: home.anna)
        let lists: [[AlertTopic]] = [[.alerts], [.sos], [.doses], [.stock], [.sos, .doses], [.sos, .stock], [.doses, .stock],
                                     [.sos, .doses, .stock], [.alerts, .sos]]
        var open: [AlertStream] = []
        for topics in lists.prefix(AlertStreams.maximumPerCredential) {
            open.append(try await home.streams.open(AlertReader(app: app, topics: topics, origin: "http://h"), since: .none))
        }
        // A WebSocket is refused before upgrading by the same count; the same
        // topics again would replace their older stream, so there is room.
        #expect(!home.streams.hasRoom(for: AlertReader(app: app, topics: lists[8], origin: "http://h")))
        #expect(home.streams.hasRoom(for: AlertReader(app: app, topics: lists[0], origin: "http://h")))
        await #expect(throws: AlertStreamRefusal.tooManyStreams(limit: 8)) {
            _ = try await home.streams.open(AlertReader(app: app, topics: lists[8], origin: "http://h"), since: .none)
        }
        // Another credential of the same person is not counted against this one.
        open.append(try await home.streams.open(try await home.reader(for: home.anna), since: .none))
        expectEqual(home.streams.openCount, 9)
    }

    @Test func aNewStreamOfTheSameCredentialAndTopicsDropsTheOldOne() async throws {
        let home = try await AlertHome()
        let reader = try await home.reader(for: home.anna, topics: [.sos, .doses])
        let dropped = Locked(false)
        let old = StreamRecorder(try await home.streams.open(reader, since: .none) { dropped.withLock { $0 = true } })
        let other = StreamRecorder(try await home.streams.open(reader.reading(as: reader.app), since: .none))
        let sosOnly = StreamRecorder(try await home.streams.open(AlertReader(app: reader.app, topics: [.sos], origin: "http://h"),
                                                                 since: .none))
        // The app came back on a new connection: the old one (a phone that left the Wi-Fi) is given up.
        let back = StreamRecorder(try await home.streams.open(reader, since: .none))
        #expect(await old.wait { $0.ended.withLock { $0 } })
        #expect(dropped.withLock { $0 })
        #expect(await other.wait { $0.ended.withLock { $0 } })
        let sos = try await home.store.raiseSOS(for: home.zosia.id, as: PermissionPolicy.Actor(personId: home.zosia.id, role: .senior), by: "test")
        #expect(await back.wait { $0.messages.map(\.sequenceId) == [sos.id.text] })
        #expect(await sosOnly.wait { $0.messages.map(\.sequenceId) == [sos.id.text] })
        expectEqual(home.streams.openCount, 2)
    }

    @Test func aPhoneThatStopsReadingIsClosedAndTheOthersKeepHearing() async throws {
        let home = try await AlertHome(outboxLimit: 4)
        let dropped = Locked(false)
        let stalled = try await home.streams.open(try await home.reader(for: home.anna), since: .none) { dropped.withLock { $0 = true } }
        let reading = StreamRecorder(try await home.streams.open(try await home.reader(for: home.anna), since: .none))
        for _ in 0..<10 { _ = try await home.store.raiseSOS(for: home.zosia.id, as: PermissionPolicy.Actor(personId: home.zosia.id, role: .senior), by: "test") }
        #expect(await reading.wait { $0.messages.count == 10 })
        // The stalled one got what fitted, then was closed, its connection
        // dropped (a write to it may never finish): it reconnects with its last id.
        var received = 0
        for await event in stalled where event.kind == .message { received += 1 }
        #expect(received < 10)
        #expect(dropped.withLock { $0 })
        #expect(!reading.ended.withLock { $0 })
    }
}

/// Where an alert went is kept for its history, named as the household knows each recipient.
struct AlertDeliveryTests {
    @Test func whatTheStreamsWroteIsKeptWithTheAppsNameAndWhereTheAnswerCameFrom() async throws {
        let home = try await AlertHome()
        let reader = try await home.reader(for: home.anna)
        let stream = try await home.streams.open(reader, since: .none)
        let sos = try await home.store.raiseSOS(for: home.zosia.id, as: PermissionPolicy.Actor(personId: home.zosia.id, role: .senior), by: "test")
        for await event in stream where event.kind == .message {
            stream.written(event)
            break
        }
        let acknowledged = try await home.store.acknowledgeAlert(id: sos.id, as: try await home.actor(home.anna),
                                                                 by: "alert-app:\(reader.app.app.id.text)")
        await DeliveryRecorder(store: home.store, board: home.streams.deliveries, logger: .init(label: "test")).flush()
        let kept = try await home.store.deliveries(ofAlert: sos.id)
        #expect(kept.map(\.channel) == ["alert-app"] && kept.map(\.recipient) == ["phone"])
        expectEqual(acknowledged.details.field("acknowledgedFrom"), .string("alert-app:\(reader.app.app.id.text)"))
        try await expectEqual(home.store.recipientName("alert-app:\(reader.app.app.id.text)"), "phone")
        // Handed over once: a second flush keeps nothing twice.
        await DeliveryRecorder(store: home.store, board: home.streams.deliveries, logger: .init(label: "test")).flush()
        try await expectEqual(home.store.deliveries(ofAlert: sos.id).count, 1)
    }
}

/// Quiet hours on a real store's clock: doses are hushed, an SOS never.
struct QuietHoursTests {
    @Test func quietHoursHushADueDoseButNeverAnSOS() async throws {
        let home = try await AlertHome()
        let settings = SpeechSettings(enabled: true, voice: nil, quietHours: try #require(QuietHours("00:00-23:59")), device: "default")
        let voice = HubVoice(store: home.store, settings: settings, board: DeliveryBoard(), status: VoiceStatus(enabled: true),
                             logger: Logger(label: "test"))
        let wording = AlertWording(try await home.store.household())
        let due = CareAlert(kind: .doseDue, audience: .senior, personId: home.zosia.id, raisedBy: "hub", raisedAt: Date())
        let sos = CareAlert(kind: .sos, audience: .caregivers, personId: home.zosia.id, raisedBy: "hub", raisedAt: Date())
        #expect(voice.isHushed(due, wording: wording))
        #expect(!voice.isHushed(sos, wording: wording))
        // A senior's lines are read at her own rate: slow until someone chooses.
        await expectEqual(voice.rate(for: home.zosia.id), Speaker.wordsPerMinute(.slow))
        await expectEqual(voice.rate(for: nil), Speaker.normalRate)
    }
}
