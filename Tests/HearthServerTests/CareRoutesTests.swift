import Foundation
import HearthCore
@testable import HearthServer
import HearthStore
import HTTPTypes
import Testing
import HearthTestSupport

/// Today, doses and alerts: what a senior taps and what a caregiver hears.
@Suite struct CareRoutesTests {
    @Test func peopleSayWhomEachLooksAfter() async throws {
        try await CareHousehold.with { home in
            func caresFor(_ name: String, as token: String?) async throws -> JSONValue? {
                try await home.call(.get, "/api/v1/people", as: token).list.first { $0.field("name") == .string(name) }?.field("caresFor")
            }
            let (byAdmin, byAnia) = (try await caresFor("Ania", as: nil), try await caresFor("Ania", as: home.caregiver))
            let (babcia, obcy) = (try await caresFor("Babcia", as: home.senior), try await caresFor("Obcy", as: nil))
            // The admin and Ania herself see that Ania looks after Babcia; Babcia and Obcy look after nobody.
            expectEqual(byAdmin, .array([.string(home.seniorId.text)]))
            expectEqual(byAnia, .array([.string(home.seniorId.text)]))
            expectEqual(babcia, .array([]))
            expectEqual(obcy, .array([]))
        }
    }

    @Test func todayShowsTheComingDoseAndADoubleTapIsRecordedOnce() async throws {
        try await CareHousehold.with { home in
            // given a tablet planned an hour from now, with 10 on hand
            let soon = CareHousehold.inAnHour()
            let medicationId = try await home.addMedication(
                stock: 10, schedule: #"{"kind": "weekly", "times": ["\#(soon.time)"], "amount": 1}"#)

            // then Today lists it as still to come
            let today = try await home.call(.get, "/api/v1/today?date=\(soon.date)", as: home.senior)
            expectEqual(today.status, .ok)
            expectEqual(today["timeZone"], "Europe/Warsaw")
            guard case .array(let people)? = today["people"], let babcia = people.first,
                  case .array(let doses)? = babcia.field("doses"), let dose = doses.first
            else { Issue.record("no dose listed: \(String(describing: today.body))"); return }
            expectEqual(people.count, 1)
            expectEqual(babcia.field("name"), "Babcia")
            expectEqual(dose.field("status"), "upcoming")
            expectEqual(dose.field("medicationName"), "Metformina")
            expectEqual(dose.field("time"), .string(soon.time))
            expectEqual(dose.field("dose"), .null)
            expectEqual(babcia.field("counts")?.field("upcoming"), .number(1))
            let key = try #require(dose.field("key")?.text)

            // when the senior taps "Taken" twice
            let first = try await home.call(.post, "/api/v1/doses", as: home.senior, body: #"{"key": "\#(key)", "status": "taken"}"#)
            let second = try await home.call(.post, "/api/v1/doses", as: home.senior, body: #"{"key": "\#(key)", "status": "taken"}"#)

            // then it is recorded once, and one tablet leaves the stock
            expectEqual(first.status, .created)
            expectEqual(second.status, .ok)
            expectEqual(first["id"], second["id"])
            try await expectEqual(home.call(.get, "/api/v1/medications/\(medicationId)", as: home.senior)["stock"], .number(9))
            let after = try await home.call(.get, "/api/v1/today?date=\(soon.date)", as: home.caregiver)
            guard case .array(let listed)? = after["people"] else { Issue.record("no people"); return }
            expectEqual(listed.first?.field("counts")?.field("taken"), .number(1))

            // and a caregiver can correct when it was taken
            let doseId = try #require(first["id"]?.text)
            let earlier = Date().addingTimeInterval(-600)
            let corrected = try await home.call(.patch, "/api/v1/doses/\(doseId)", as: home.caregiver,
                                                body: #"{"takenAt": "\#(earlier.formatted(.iso8601))"}"#)
            expectEqual(corrected.status, .ok)
            #expect(corrected["takenAt"]?.text.flatMap(HearthJSON.date(from:)).map { abs($0.timeIntervalSince(earlier)) < 1 } == true)
            // (who recorded it stays; who put it right is kept beside)
            expectEqual(corrected["recordedBy"]?.text, home.seniorId.text)
            expectEqual(corrected["correctedBy"]?.text, home.caregiverId.text)
            #expect(corrected["correctedAt"]?.text != nil)
            #expect(try await home.call(.patch, "/api/v1/doses/\(doseId)", as: home.caregiver,
                                        body: #"{"takenAt": "yesterday"}"#).invalidFields == ["takenAt"])
            // A time nobody could write is refused, not rolled over to another moment.
            for impossible in ["2026-03-29T10:99:00Z", "2026-03-29T25:00:00Z", "2026-02-31T10:00:00Z"] {
                #expect(try await home.call(.patch, "/api/v1/doses/\(doseId)", as: home.caregiver,
                                            body: #"{"takenAt": "\#(impossible)"}"#).invalidFields == ["takenAt"], "\(impossible)")
            }

            // and taken ↔ skipped moves the stock, and taking the answer back returns it
            let skipped = try await home.call(.patch, "/api/v1/doses/\(doseId)", as: home.caregiver, body: #"{"status": "skipped"}"#)
            expectEqual(skipped["status"], "skipped")
            try await expectEqual(home.call(.get, "/api/v1/medications/\(medicationId)", as: home.senior)["stock"], .number(10))
            _ = try await home.call(.patch, "/api/v1/doses/\(doseId)", as: home.caregiver, body: #"{"status": "taken"}"#)
            try await expectEqual(home.call(.get, "/api/v1/medications/\(medicationId)", as: home.senior)["stock"], .number(9))
            #expect(try await home.call(.patch, "/api/v1/doses/\(doseId)", as: home.caregiver,
                                        body: #"{"withdraw": true, "status": "taken"}"#).invalidFields == ["withdraw"])
            let withdrawn = try await home.call(.patch, "/api/v1/doses/\(doseId)", as: home.caregiver, body: #"{"withdraw": true}"#)
            expectEqual(withdrawn.status, .ok)
            try await expectEqual(home.call(.get, "/api/v1/medications/\(medicationId)", as: home.senior)["stock"], .number(10))
            #expect(try await home.call(.patch, "/api/v1/doses/\(doseId)", as: home.caregiver,
                                        body: #"{"withdraw": true}"#).status != .ok, "nothing left to take back")
            // answered again, it counts once more
            #expect(try await home.call(.post, "/api/v1/doses", as: home.senior, body: #"{"key": "\#(key)", "status": "taken"}"#).status == .created)
            try await expectEqual(home.call(.get, "/api/v1/medications/\(medicationId)", as: home.senior)["stock"], .number(9))

            // and it is in the history, which a stranger cannot read
            // (through the day it was planned for: within an hour of midnight that is tomorrow)
            let history = try await home.call(.get, "/api/v1/doses?personId=\(home.seniorId.text)&to=\(soon.date)", as: home.caregiver)
            #expect(history.list.map { $0.field("key") } == [.string(key)])
            try await expectEqual(home.call(.get, "/api/v1/doses/\(doseId)", as: home.stranger).status, .notFound)
            #expect(try await home.call(.get, "/api/v1/doses", as: home.stranger).list.isEmpty)
        }
    }

    @Test func aStrangerCannotAnswerSomeoneElsesDose() async throws {
        try await CareHousehold.with { home in
            let key = try await home.doseInAnHour()

            let refused = try await home.call(.post, "/api/v1/doses", as: home.stranger, body: #"{"key": "\#(key)", "status": "taken"}"#)
            expectEqual(refused.status, .notFound)
            #expect(try await home.store.doses(of: [home.seniorId], from: .distantPast, to: .distantFuture).isEmpty)
            try await expectEqual(home.call(.get, "/api/v1/today", as: home.stranger)["people"], .array([]))
        }
    }

    @Test func anAsNeededDoseTooSoonIsRefusedUnlessACaregiverOverrides() async throws {
        try await CareHousehold.with { home in
            let medicationId = try await home.addMedication(
                name: "Paracetamol", schedule: #"{"kind": "asNeeded", "minimumIntervalMinutes": 240, "amount": 1}"#)
            let take = #"{"medicationId": "\#(medicationId)", "status": "taken"}"#
            let override = #"{"medicationId": "\#(medicationId)", "override": true, "reason": "fever"}"#

            try await expectEqual(home.call(.post, "/api/v1/doses", as: home.senior, body: take).status, .created)
            let tooSoon = try await home.call(.post, "/api/v1/doses", as: home.senior, body: take)
            expectEqual(tooSoon.status, .conflict)
            expectEqual(tooSoon["type"], "urn:hearth:problem:limit-reached")
            // The fields a device needs to say it in its own language.
            expectEqual(tooSoon["rule"], "minimumInterval")
            expectEqual(tooSoon["medicationName"], "Paracetamol")
            #expect(tooSoon["nextAllowedTime"] != nil && tooSoon["nextAllowedAt"] != nil)
            // Only a caregiver may decide to give it anyway.
            try await expectEqual(home.call(.post, "/api/v1/doses", as: home.senior, body: override).status, .forbidden)
            try await expectEqual(home.call(.post, "/api/v1/doses", as: home.stranger, body: override).status, .notFound)
            let given = try await home.call(.post, "/api/v1/doses", as: home.caregiver, body: override)
            expectEqual(given.status, .created)
            expectEqual(given["limitOverridden"], .bool(true))
            expectEqual(given["reason"], "fever")

            let zone = TimeZone(identifier: "Europe/Warsaw") ?? .gmt
            let today = try await home.call(.get, "/api/v1/today?date=\(LocalDate(Date(), in: zone))", as: home.senior)
            guard case .array(let people)? = today["people"] else { Issue.record("no people"); return }
            #expect(people.first?.field("asNeeded").map { if case .array(let doses) = $0 { doses.count } else { 0 } } == 2)
        }
    }

    @Test func aSeniorPutsRightOnlyWhatSheRecorded() async throws {
        try await CareHousehold.with { home in
            let key = try await home.doseInAnHour()
            // Given her caregiver recorded it
            let given = try await home.call(.post, "/api/v1/doses", as: home.caregiver, body: #"{"key": "\#(key)", "status": "taken"}"#)
            let id = try #require(given["id"]?.text)
            // She may not change it, nor take it back; the caregiver may
            let refused = try await home.call(.patch, "/api/v1/doses/\(id)", as: home.senior, body: #"{"status": "skipped"}"#)
            expectEqual(refused.status, .forbidden)
            #expect(try await home.call(.patch, "/api/v1/doses/\(id)", as: home.senior, body: #"{"withdraw": true}"#).status == .forbidden)
            try await expectEqual(home.call(.get, "/api/v1/doses/\(id)", as: home.senior)["status"], "taken", "left as it was")
            #expect(try await home.call(.patch, "/api/v1/doses/\(id)", as: home.caregiver, body: #"{"withdraw": true}"#).status == .ok)
            // What she records herself, she puts right herself
            let mine = try await home.call(.post, "/api/v1/doses", as: home.senior, body: #"{"key": "\#(key)", "status": "skipped"}"#)
            let mineId = try #require(mine["id"]?.text)
            let changed = try await home.call(.patch, "/api/v1/doses/\(mineId)", as: home.senior, body: #"{"status": "taken"}"#)
            #expect(changed.status == .ok && changed["correctedBy"]?.text == home.seniorId.text)
        }
    }

    @Test func anSOSReachesTheCaregiverUntilSomeoneAcknowledgesIt() async throws {
        try await CareHousehold.with { home in
            // when Babcia presses SOS (the button sends no body)
            let raised = try await home.call(.post, "/api/v1/sos", as: home.senior)
            expectEqual(raised.status, .created)
            let alertId = try #require(raised["id"]?.text)
            expectEqual(raised.location, "/api/v1/alerts/\(alertId)")
            expectEqual(raised["kind"], "sos")

            // then Ania sees it open; a caregiver who does not look after Babcia does not
            let open = try await home.call(.get, "/api/v1/alerts?open=1", as: home.caregiver)
            #expect(open.list.map { $0.field("id") } == [.string(alertId)])
            #expect(try await home.call(.get, "/api/v1/alerts?open=1", as: home.stranger).list.isEmpty)
            try await expectEqual(home.call(.post, "/api/v1/alerts/\(alertId)/ack", as: home.stranger).status, .notFound)

            // "I'm on my way" is for caregivers
            try await expectEqual(home.call(.post, "/api/v1/alerts/\(alertId)/respond", as: home.senior).status, .forbidden)
            let coming = try await home.call(.post, "/api/v1/alerts/\(alertId)/respond", as: home.caregiver)
            expectEqual(coming.status, .ok)
            expectEqual(coming["respondedBy"]?.text, home.caregiverId.text)

            // and acknowledging clears it everywhere
            try await expectEqual(home.call(.post, "/api/v1/alerts/\(alertId)/ack", as: home.caregiver).status, .ok)
            #expect(try await home.call(.get, "/api/v1/alerts?open=1", as: home.caregiver).list.isEmpty)
            try await expectEqual(home.call(.get, "/api/v1/alerts", as: home.senior).list.count, 1)
        }
    }

    @Test func aCaregiverRaisesSOSOnlyForASeniorTheyLookAfter() async throws {
        try await CareHousehold.with { home in
            let forBabcia = #"{"personId": "\#(home.seniorId.text)"}"#
            try await expectEqual(home.call(.post, "/api/v1/sos", as: home.caregiver, body: forBabcia).status, .created)
            try await expectEqual(home.call(.post, "/api/v1/sos", as: home.stranger, body: forBabcia).status, .notFound)
            let nobody = try await home.call(.post, "/api/v1/sos", as: home.caregiver)
            expectEqual(nobody.status, .unprocessableContent)
            expectEqual(nobody.invalidFields, ["personId"])
        }
    }

    @Test func aPhoneWhoseClockDiffersRaisesTheClockAlertAndACaregiverCorrectsTheHub() async throws {
        try await CareHousehold.with { home in
            // given a phone whose clock is a day ahead of the hub's
            let phone = Date().addingTimeInterval(86_400)
            let body = #"{"deviceTime": "\#(phone.formatted(.iso8601))"}"#
            let reading = try await home.call(.post, "/api/v1/clock", as: home.senior, body: body)
            expectEqual(reading["looksWrong"], .bool(true))
            // every answer says the hub's time, which pages follow (Web/hub-clock.js)
            #expect(abs(try #require(reading.hubTime).timeIntervalSinceNow) < 5)
            // then the caregiver hears of it, and a senior may not change the hub's time
            let open = try await home.call(.get, "/api/v1/alerts?open=1", as: home.caregiver)
            #expect(open.list.map { $0.field("kind") } == ["clock"])
            try await expectEqual(home.call(.post, "/api/v1/clock/correct", as: home.senior, body: body).status, .forbidden)
            // nor a caregiver who looks after nobody here (she would use up the one correction)
            try await expectEqual(home.call(.post, "/api/v1/clock/correct", as: home.stranger, body: body).status, .forbidden)
            // when the caregiver taps "use this phone's time"
            let corrected = try await home.call(.post, "/api/v1/clock/correct", as: home.caregiver, body: body)
            expectEqual(corrected.status, .ok)
            // then the hub keeps that time and the alert is gone
            #expect(abs(home.store.currentTime().timeIntervalSince(phone)) < 5)
            #expect(abs(try #require(corrected.hubTime).timeIntervalSince(phone)) < 5)
            let refused = try await home.call(.post, "/api/v1/clock/correct", as: home.senior, body: body)
            let refusedAt = try #require(refused.hubTime, "a refusal says it too")
            #expect(refused.status == .forbidden && abs(refusedAt.timeIntervalSince(phone)) < 5)
            #expect(try await home.call(.get, "/api/v1/alerts?open=1", as: home.caregiver).list.isEmpty)
            #expect(try await home.call(.post, "/api/v1/clock", as: home.senior, body: #"{"deviceTime": "soon"}"#).invalidFields == ["deviceTime"])
            #expect(try await home.call(.post, "/api/v1/clock/correct", body: #"{"deviceTime": "2026-02-31T10:00:00Z", "confirm": true}"#)
                .invalidFields == ["deviceTime"], "not rolled over to 3 March")
        }
    }

    @Test func aCaregiverCannotMoveTheHubAMonthAheadAndEmptyTrash() async throws {
        try await CareHousehold.with { home in
            // Given Babcia's private diary in Trash since today
            let diary = try await home.store.createNote(as: .noteMaker(home.seniorId), title: "Pamiętnik", text: "", visibility: .private,
                                                        pinned: false, by: "t")
            _ = try await home.store.trashNote(id: diary.id, as: .init(personId: diary.ownerId, role: .admin), by: "t")
            func body(_ time: Date, confirm: Bool = false) -> String {
                #"{"deviceTime": "\#(time.formatted(.iso8601))"\#(confirm ? #", "confirm": true"# : "")}"#
            }
            let monthAhead = Date().addingTimeInterval(31 * 86_400)
            // When Ania tries to set the hub a month ahead, she may not
            let refused = try await home.call(.post, "/api/v1/clock/correct", as: home.caregiver, body: body(monthAhead))
            expectEqual(refused.status, .forbidden)
            #expect(abs(home.store.currentTime().timeIntervalSinceNow) < 5)
            // Nor set it twice: once after the hub starts, near its last record
            try await expectEqual(home.call(.post, "/api/v1/clock/correct", as: home.caregiver, body: body(Date().addingTimeInterval(300))).status, .ok)
            try await expectEqual(home.call(.post, "/api/v1/clock/correct", as: home.caregiver, body: body(Date())).status, .forbidden)
            // An admin a month ahead is asked to confirm, then may
            let asked = try await home.call(.post, "/api/v1/clock/correct", body: body(monthAhead))
            expectEqual(asked.status, .conflict)
            expectEqual(asked["detail"]?.text?.contains("confirm"), true)
            try await expectEqual(home.call(.post, "/api/v1/clock/correct", body: body(monthAhead, confirm: true)).status, .ok)
            // And even then Trash keeps the diary for now: the time just jumped
            #expect(try await home.store.purgeTrash(by: "hub").isEmpty)
            #expect(try await home.store.note(id: diary.id) != nil)
        }
    }

    @Test func onlyAnAdminChangesHowPersistentRemindersAre() async throws {
        try await CareHousehold.with { home in
            let settings = #"{"graceMinutes": 45, "repeatMinutes": 15}"#
            try await expectEqual(home.call(.put, "/api/v1/household/reminders", as: home.caregiver, body: settings).status, .forbidden)
            #expect(try await home.call(.put, "/api/v1/household/reminders", body: #"{"graceMinutes": 0, "repeatMinutes": 15}"#)
                .invalidFields == ["graceMinutes"])
            try await expectEqual(home.call(.put, "/api/v1/household/reminders", body: settings).status, .ok)
            let read = try await home.call(.get, "/api/v1/household/reminders", as: home.senior)
            expectEqual(read["graceMinutes"], .number(45))
            expectEqual(read["repeatMinutes"], .number(15))
        }
    }

    @Test(arguments: [
        ("/api/v1/today?date=2026-02-30", "date"),
        ("/api/v1/doses?from=yesterday", "from"),
        ("/api/v1/alerts?kind=fire", "kind"),
        ("/api/v1/alerts?limit=0", "limit"),
    ])
    func badQueriesNameTheParameter(uri: String, field: String) async throws {
        try await CareHousehold.with { home in
            let reply = try await home.call(.get, uri, as: home.caregiver)
            expectEqual(reply.status, .unprocessableContent)
            expectEqual(reply.invalidFields, [field])
        }
    }
}

/// Who hears of a care change on the live stream.
@Suite struct CareLiveVisibilityTests {
    static let senior = UUID(), caregiver = UUID(), stranger = UUID()

    static func caller(_ person: UUID, _ role: Person.Role, caresFor: Set<UUID> = []) -> Caller {
        .device(id: UUID(), as: PermissionPolicy.Actor(personId: person, role: role, caresFor: caresFor))
    }

    static func change(_ entity: ChangeEntity, _ payload: JSONValue) -> Change {
        Change(seq: 1, entity: entity, entityId: UUID().uuidString, op: .update, payload: payload, origin: "t", time: Date())
    }

    @Test func aDoseIsHeardByItsSeniorAndTheirCaregiversOnly() {
        let now = Date()
        let dose = Dose(key: nil, medicationId: UUID(), personId: Self.senior, scheduleId: nil, dueAt: nil, plannedDate: nil,
                        plannedTime: nil, amount: 1, status: .taken, takenAt: now, createdAt: now, updatedAt: now)
        let change = Self.change(.dose, dose.json)
        #expect(LiveVisibility.isVisible(change, to: Self.caller(Self.senior, .senior)))
        #expect(LiveVisibility.isVisible(change, to: Self.caller(Self.caregiver, .caregiver, caresFor: [Self.senior])))
        #expect(!LiveVisibility.isVisible(change, to: Self.caller(Self.stranger, .caregiver)))
        #expect(!LiveVisibility.isVisible(change, to: Self.caller(Self.stranger, .admin)))
        #expect(!LiveVisibility.isVisible(change, to: .unpaired))
    }

    @Test func medicationsAndSchedulesFollowTheMedicationList() {
        let medication = Medication(personId: Self.senior, name: "Metformina", createdAt: Date(), updatedAt: Date())
        let removedSchedule: JSONValue = ["medicationId": .of(medication.id), "personId": .of(Self.senior)]
        for change in [Self.change(.medication, medication.json), Self.change(.schedule, removedSchedule)] {
            #expect(LiveVisibility.isVisible(change, to: Self.caller(Self.senior, .senior)))
            #expect(LiveVisibility.isVisible(change, to: Self.caller(Self.caregiver, .caregiver, caresFor: [Self.senior])))
            #expect(!LiveVisibility.isVisible(change, to: Self.caller(Self.stranger, .caregiver)))
        }
        #expect(!LiveVisibility.isVisible(Self.change(.schedule, ["medicationId": .of(medication.id)]), to: Self.caller(Self.senior, .senior)),
                "a payload that names nobody is not sent")
    }

    @Test func theHubsClockAlertIsForItsKeepers() {
        let clock = CareAlert(kind: .clock, audience: .keepers, personId: nil, raisedBy: "hub", raisedAt: Date())
        let change = Self.change(.alert, clock.json)
        #expect(LiveVisibility.isVisible(change, to: Self.caller(Self.caregiver, .caregiver)))
        #expect(LiveVisibility.isVisible(change, to: Self.caller(Self.stranger, .admin)))
        #expect(!LiveVisibility.isVisible(change, to: Self.caller(Self.senior, .senior)))

        let sos = CareAlert(kind: .sos, audience: .caregivers, personId: Self.senior, raisedBy: "t", raisedAt: Date())
        #expect(LiveVisibility.isVisible(Self.change(.alert, sos.json), to: Self.caller(Self.caregiver, .caregiver, caresFor: [Self.senior])))
        #expect(!LiveVisibility.isVisible(Self.change(.alert, sos.json), to: Self.caller(Self.stranger, .caregiver)))
    }
}

/// Who looks after whom, from the API: an admin links and unlinks; nobody else may.
struct CareLinkRoutesTests {
    @Test func anAdminLinksAndUnlinksACaregiverAndTheCaregiverSeesTheSeniorOnlyMeanwhile() async throws {
        try await CareHousehold.with { home in
            let stranger = try #require(try await home.store.person(named: "Obcy")?.id)
            let path = "/api/v1/people/\(home.seniorId.text)/caregivers/\(stranger.text)"
            try await expectEqual(home.call(.get, "/api/v1/alerts?personId=\(home.seniorId.text)", as: home.stranger).status, .notFound)
            // Not hers to decide, even for herself.
            try await expectEqual(home.call(.put, path, as: home.stranger).status, .forbidden)
            try await expectEqual(home.call(.put, path).status, .noContent)
            try await expectEqual(home.call(.get, "/api/v1/alerts?personId=\(home.seniorId.text)", as: home.stranger).status, .ok)
            let twice = try await home.call(.put, path)
            #expect(twice.status == .conflict && twice["type"] == "urn:hearth:problem:conflict")
            let backwards = try await home.call(.put, "/api/v1/people/\(stranger.text)/caregivers/\(home.seniorId.text)")
            #expect(backwards.status == .unprocessableContent && backwards.invalidFields == ["caregiver"])
            try await expectEqual(home.call(.put, "/api/v1/people/\(UUID.random().text)/caregivers/\(stranger.text)").status, .notFound)
            try await expectEqual(home.call(.delete, path, as: home.caregiver).status, .forbidden)
            try await expectEqual(home.call(.delete, path).status, .noContent)
            try await expectEqual(home.call(.delete, path).status, .notFound)
            try await expectEqual(home.call(.get, "/api/v1/alerts?personId=\(home.seniorId.text)", as: home.stranger).status, .notFound)
        }
    }

    @Test func peopleChangeTheirNameAndNumberAnAdminChangesRolesArchivesAndSeesTheAudit() async throws {
        try await CareHousehold.with { home in
            let ania = "/api/v1/people/\(home.caregiverId.text)"
            let mine = try await home.call(.patch, ania, as: home.caregiver, body: #"{"name": "Ania Nowak", "phone": "+48 601 234 567"}"#)
            #expect(mine.status == .ok && mine["name"] == "Ania Nowak" && mine["phone"] == "+48 601 234 567")
            #expect(try await home.call(.get, "/api/v1/people", as: home.senior).list
                .first { $0.field("name") == "Ania Nowak" }?.field("phone") == "+48 601 234 567", "her senior sees her number")
            let bad = try await home.call(.patch, ania, as: home.caregiver, body: #"{"name": "Ania", "phone": "zadzwoń"}"#)
            #expect(bad.status == .unprocessableContent && bad.invalidFields == ["phone"])
            #expect(try await home.call(.patch, ania, as: home.caregiver, body: #"{"role": "admin"}"#).status == .forbidden)
            #expect(try await home.call(.patch, ania, body: #"{"role": "boss"}"#).status == .unprocessableContent)
            #expect(try await home.call(.patch, ania, body: #"{"phone": null}"#).body?.field("phone") == .null)
            let senior = "/api/v1/people/\(home.seniorId.text)"
            // Her own name for Babcia: hers to see, not Babcia's nor the admin's.
            let called = try await home.call(.patch, senior, as: home.caregiver, body: #"{"alias": "Mama"}"#)
            #expect(called.status == .ok && called["alias"] == "Mama" && called["name"] == "Babcia")
            func aliasOfBabcia(as token: String?) async throws -> JSONValue? {
                try await home.call(.get, "/api/v1/people", as: token).list.first { $0.field("name") == "Babcia" }?.field("alias")
            }
            try await expectEqual(aliasOfBabcia(as: home.caregiver), "Mama")
            #expect(try await aliasOfBabcia(as: nil) == nil)
            #expect(try await aliasOfBabcia(as: home.senior) == nil)
            #expect(try await home.call(.patch, senior, as: home.stranger, body: #"{"alias": "Babunia"}"#).invalidFields == ["alias"])
            let cannot = try await home.call(.patch, senior, body: #"{"role": "caregiver"}"#)
            #expect(cannot.status == .conflict && cannot["detail"] == "Someone looks after Babcia: unlink them first, then change Babcia's role")
            try await expectEqual(home.call(.post, "\(ania)/archive", as: home.senior).status, .forbidden)
            let archived = try await home.call(.post, "\(ania)/archive")
            #expect(archived.status == .ok && archived["archivedAt"] != nil)
            try await expectEqual(home.call(.get, "/api/v1/people?archived=1", as: home.stranger).status, .forbidden)
            #expect(try await home.call(.get, "/api/v1/people?archived=1").list.contains { $0.field("id") == .string(home.caregiverId.text) })
            try await expectEqual(home.call(.post, "\(ania)/restore").status, .ok)
            try await expectEqual(home.call(.get, "/api/v1/household/audit", as: home.stranger).status, .forbidden)
            try await expectEqual(home.call(.get, "/api/v1/people", as: home.caregiver).status, .unauthorized, "archiving ended her devices")
            let audit = try await home.call(.get, "/api/v1/household/audit?limit=3")
            #expect(audit.status == .ok && audit.list.count == 3)
            expectEqual(audit.list.first?.field("summary")?.field("restored"), .bool(true))
            #expect(audit.list.first?.field("actorName") != nil && audit.list.first?.field("viaTerminal") == .bool(false))
        }
    }

    @Test func aDeviceASeniorsCodePairedIsToldItWaitsUntilAnAdminApprovesIt() async throws {
        try await CareHousehold.with { home in
            let tablet = try #require(try await home.store.pairedDevice(token: home.senior))
            let code = try await home.store.createPairing(for: .newPerson(name: "Ola", role: .caregiver), deviceName: nil,
                                                          by: "device:\(tablet.device.id.text)", maker: tablet.actor,
                                                          seniorInvitesNeedApproval: true)
            let (phone, token) = try await home.store.redeemPairing(.secret(code.code.secret), deviceName: "Telefon Oli", userAgent: nil)
            let waiting = try await home.call(.get, "/api/v1/people", as: token)
            #expect(waiting.status == .forbidden && waiting["type"] == "urn:hearth:problem:awaiting-approval")
            let listed = try await home.call(.get, "/api/v1/devices").list.first { $0.field("id") == .string(phone.device.id.text) }
            expectEqual(listed?.field("awaitingApproval"), .bool(true))
            // Not hers to see: the same 404 as a device that does not exist, so no answer tells which devices are there.
            try await expectEqual(home.call(.post, "/api/v1/devices/\(phone.device.id.text)/approve", as: home.caregiver).status, .notFound)
            try await expectEqual(home.call(.post, "/api/v1/devices/\(UUID.random().text)/approve", as: home.caregiver).status, .notFound)
            // Her own device she sees: she is told why not.
            try await expectEqual(home.call(.post, "/api/v1/devices/\(phone.device.id.text)/approve", as: token).status, .forbidden)
            try await expectEqual(home.call(.post, "/api/v1/devices/\(phone.device.id.text)/approve").status, .noContent)
            try await expectEqual(home.call(.get, "/api/v1/people", as: token).status, .ok)
        }
    }
}
