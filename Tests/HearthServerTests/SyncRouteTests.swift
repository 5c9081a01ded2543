import Foundation
import HearthCore
import HearthCRDT
@testable import HearthServer
import HearthStore
import HearthTestSupport
import Testing

/// `POST /api/v1/sync` and `GET /api/v1/sync/snapshot`, through the routes on
/// a real store: devices that were offline push field edits stamped with
/// their own hybrid clocks, and pull what they missed.
@Suite struct SyncRouteTests {
    /// A paired device as a sync client: its token and its own clock.
    final class SyncingDevice: @unchecked Sendable {
        // @unchecked: each test drives one device from one task at a time.
        let token: String
        let id: String
        var clock: HybridClock
        var cursor: Int64 = 0
        /// How far this device's wall clock is off, in milliseconds.
        let skew: Int64

        init(token: String, store: HearthStore, skew: Int64 = 0) async throws {
            self.token = token
            id = try #require(try await store.pairedDevice(token: token)).device.id.uuidString.lowercased()
            clock = HybridClock(node: id)
            self.skew = skew
        }

        /// A reading for an edit made now, by this device's (perhaps wrong) wall clock.
        func stamp() -> String {
            clock.next(physical: Int64(Date().timeIntervalSince1970 * 1000) + skew).description
        }

        func change(_ entity: String, _ id: String, _ fields: String, deleted: Bool? = nil, opId: UUID = UUID(), hlc: String? = nil) -> String {
            let deletedField = deleted.map { #", "deleted": \#($0)"# } ?? ""
            return #"{"opId": "\#(opId.uuidString)", "entity": "\#(entity)", "id": "\#(id)", "fields": \#(fields)\#(deletedField), "hlc": "\#(hlc ?? stamp())"}"#
        }

        /// Pushes `changes` and pulls from its cursor; takes in the hub's clock and the new cursor.
        @discardableResult
        func sync(_ home: CareHousehold, _ changes: [String] = []) async throws -> CareHousehold.Reply {
            let reply = try await home.call(.post, "/api/v1/sync", as: token,
                                            body: #"{"since": \#(cursor), "changes": [\#(changes.joined(separator: ","))]}"#)
            if reply.status == .ok {
                cursor = Int64(try #require(reply["cursor"]?.number))
                clock.observe(try #require(reply["hlc"]?.text.flatMap(HybridTime.init)))
            }
            return reply
        }
    }

    static func results(_ reply: CareHousehold.Reply) -> [JSONValue] {
        if case .array(let items)? = reply["results"] { return items }
        return []
    }

    static func pulled(_ reply: CareHousehold.Reply, _ key: String = "changes") -> [JSONValue] {
        if case .array(let items)? = reply[key] { return items }
        return []
    }

    /// The key of Babcia's first planned dose on `date`, as Today lists it.
    static func firstDoseKey(_ home: CareHousehold, on date: LocalDate) async throws -> String {
        let today = try await home.call(.get, "/api/v1/today?date=\(date)", as: home.senior)
        guard case .array(let people)? = today["people"], case .array(let doses)? = people.first?.field("doses"),
              let key = doses.first?.field("key")?.text
        else { throw HearthError.notFound(what: "A planned dose") }
        return key
    }

    /// The admin looks after Babcia too, so may change her medications.
    static func linkAdmin(_ home: CareHousehold) async throws {
        let adminId = try #require(try await home.store.person(named: "Admin")?.id)
        try await home.store.link(caregiver: adminId, senior: home.seniorId, as: .hubTerminal, by: "test")
    }

    static func medication(_ home: CareHousehold, _ id: String) async throws -> CareHousehold.Reply {
        try await home.call(.get, "/api/v1/medications/\(id)", as: home.caregiver)
    }

    @Test func fieldsEditedOfflineOnTwoDevicesGoToTheLaterStampWhicheverSyncsFirst() async throws {
        try await CareHousehold.with { home in
            try await Self.linkAdmin(home)
            for adminFirst in [true, false] {
                let medicationId = try await home.addMedication(name: "Metformina", schedule: #"{"kind": "weekly", "times": ["08:00"], "amount": 1}"#)
                let ania = try await SyncingDevice(token: home.caregiver, store: home.store)
                let admin = try await SyncingDevice(token: home.client.token, store: home.store)
                try await ania.sync(home)
                try await admin.sync(home)

                // Both offline: the admin renames it and notes its strength; Ania renames it a moment later.
                let adminEdits = [admin.change("medication", medicationId, #"{"name": "Metformina 500", "strength": "500 mg"}"#)]
                try await Task.sleep(for: .milliseconds(5))
                let aniaEdits = [ania.change("medication", medicationId, #"{"name": "Metformin (Glucophage)"}"#)]

                let (first, second) = adminFirst ? (admin, ania) : (ania, admin)
                let firstReply = try await first.sync(home, adminFirst ? adminEdits : aniaEdits)
                let secondReply = try await second.sync(home, adminFirst ? aniaEdits : adminEdits)
                #expect(firstReply.status == .ok && secondReply.status == .ok)

                let stored = try await Self.medication(home, medicationId)
                expectEqual(stored["name"], "Metformin (Glucophage)", "the later stamp wins, adminFirst: \(adminFirst)")
                expectEqual(stored["strength"], "500 mg", "a field only one device changed is kept")
                if adminFirst {
                    expectEqual(Self.results(secondReply).first?.field("status"), "applied")
                } else {
                    // The admin's rename lost; it hears what stands, and that its strength did land.
                    let result = try #require(Self.results(secondReply).first)
                    expectEqual(result.field("status"), "superseded")
                    expectEqual(result.field("supersededFields"), .array(["name"]))
                    expectEqual(result.field("current")?.field("fields")?.field("name"), "Metformin (Glucophage)")
                }
                // Whoever synced first now pulls the merged medication.
                let caughtUp = try await first.sync(home)
                let merged = Self.pulled(caughtUp).first { $0.field("id") == .string(medicationId) }
                expectEqual(merged?.field("fields")?.field("name"), "Metformin (Glucophage)")
                expectEqual(merged?.field("fields")?.field("strength"), "500 mg")
            }
        }
    }

    @Test func aRetriedPushIsAppliedOnceAndAReusedOpIdWithOtherContentIsRefusedWhole() async throws {
        try await CareHousehold.with { home in
            let soon = CareHousehold.inAnHour()
            let medicationId = try await home.addMedication(stock: 10, schedule: #"{"kind": "weekly", "times": ["\#(soon.time)"], "amount": 1}"#)
            let key = try await Self.firstDoseKey(home, on: soon.date)
            let babcia = try await SyncingDevice(token: home.senior, store: home.store)
            let taken = babcia.change("dose", key, #"{"status": "taken"}"#)
            let seqBefore = try await home.store.latestSeq()

            // The first push lands, but say its response was lost: the same push is sent again.
            let first = try await babcia.sync(home, [taken])
            babcia.cursor = 0
            let again = try await babcia.sync(home, [taken])
            #expect(first.status == .ok && again.status == .ok)
            expectEqual(Self.results(first), Self.results(again))
            expectEqual(Self.results(first).first?.field("status"), "applied", "\(String(describing: first.body))")
            let seqAfter = try await home.store.latestSeq()
            try await expectEqual(Self.medication(home, medicationId)["stock"], .number(9), "one dose, one tablet")
            try await expectEqual(home.store.latestSeq(), seqAfter, "the retry wrote nothing")
            #expect(seqAfter > seqBefore)

            // The same opId with other content, beside a fresh change: nothing of the push is applied.
            let opId = UUID()
            let noteId = UUID().uuidString.lowercased()
            _ = try await babcia.sync(home, [babcia.change("note", noteId, #"{"title": "Zakupy"}"#, opId: opId)])
            let reused = try await babcia.sync(home, [
                babcia.change("note", UUID().uuidString.lowercased(), #"{"title": "Lekarz"}"#),
                babcia.change("note", noteId, #"{"title": "Inny"}"#, opId: opId),
            ])
            expectEqual(reused.status, .conflict)
            expectEqual(reused["type"], "urn:hearth:problem:conflict")
            let notes = try await home.call(.get, "/api/v1/notes", as: home.senior)
            #expect(notes.list.compactMap { $0.field("title")?.text }.sorted() == ["Zakupy"])
        }
    }

    @Test func aClockHoursOffCannotOverwriteWhatItHasNotSeen() async throws {
        try await CareHousehold.with { home in
            try await Self.linkAdmin(home)
            let medicationId = try await home.addMedication(name: "Metformina", schedule: #"{"kind": "weekly", "times": ["08:00"], "amount": 1}"#)
            let behind = try await SyncingDevice(token: home.caregiver, store: home.store, skew: -3 * 3_600_000)
            let ahead = try await SyncingDevice(token: home.client.token, store: home.store, skew: 3 * 3_600_000)
            try await behind.sync(home)
            let staleEdit = behind.change("medication", medicationId, #"{"instructions": "Po jedzeniu"}"#)

            // Meanwhile someone changes the instructions on the web.
            let patched = try await home.call(.patch, "/api/v1/medications/\(medicationId)", as: home.caregiver,
                                              body: #"{"instructions": "Przed snem"}"#)
            expectEqual(patched.status, .ok)

            // The slow clock's edit was made before it heard of that: it loses.
            let late = try await behind.sync(home, [staleEdit])
            expectEqual(Self.results(late).first?.field("status"), "superseded")
            try await expectEqual(Self.medication(home, medicationId)["instructions"], "Przed snem")
            // Having synced, its next edit (same slow wall clock) is stamped after everything it saw, and wins.
            let next = try await behind.sync(home, [behind.change("medication", medicationId, #"{"instructions": "Rano"}"#)])
            expectEqual(Self.results(next).first?.field("status"), "applied")
            try await expectEqual(Self.medication(home, medicationId)["instructions"], "Rano")

            // A clock hours ahead would win every contest for hours: refused, with the hub's value.
            let refused = try await ahead.sync(home, [ahead.change("medication", medicationId, #"{"instructions": "Zawsze"}"#)])
            let result = try #require(Self.results(refused).first)
            expectEqual(result.field("status"), "rejected")
            expectEqual(result.field("reason"), "clock-ahead")
            expectEqual(result.field("current")?.field("fields")?.field("instructions"), "Rano")
            try await expectEqual(Self.medication(home, medicationId)["instructions"], "Rano")
        }
    }

    @Test func aChangeTheDeviceMayNotMakeIsRejectedWithWhatStands() async throws {
        try await CareHousehold.with { home in
            let medicationId = try await home.addMedication(name: "Metformina", schedule: #"{"kind": "weekly", "times": ["08:00"], "amount": 1}"#)
            let babcia = try await SyncingDevice(token: home.senior, store: home.store)
            let obcy = try await SyncingDevice(token: home.stranger, store: home.store)

            let own = try await babcia.sync(home, [babcia.change("medication", medicationId, #"{"name": "Cukierki"}"#)])
            let result = try #require(Self.results(own).first)
            expectEqual(result.field("status"), "rejected")
            expectEqual(result.field("reason"), "forbidden")
            expectEqual(result.field("current")?.field("fields")?.field("name"), "Metformina")

            let other = try await obcy.sync(home, [obcy.change("medication", medicationId, #"{"name": "Cukierki"}"#)])
            expectEqual(Self.results(other).first?.field("reason"), "not-found")
            expectEqual(Self.results(other).first?.field("current"), .null, "nothing about what the device may not see")
            #expect(!Self.pulled(other).contains { $0.field("entity") == "medication" })
            try await expectEqual(Self.medication(home, medicationId)["name"], "Metformina")
        }
    }

    @Test func aSeniorsPrivateNoteNeverReachesACaregiversSync() async throws {
        try await CareHousehold.with { home in
            let babcia = try await SyncingDevice(token: home.senior, store: home.store)
            let ania = try await SyncingDevice(token: home.caregiver, store: home.store)
            let noteId = UUID().uuidString.lowercased()

            // Written offline on her tablet, under an id the tablet chose.
            let created = try await babcia.sync(home, [babcia.change("note", noteId, #"{"title": "Mój pamiętnik", "pinned": true}"#)])
            expectEqual(Self.results(created).first?.field("status"), "applied")
            #expect(!Self.pulled(created).contains { $0.field("id") == .string(noteId) }, "not sent back to the device that made it")
            let mine = try await home.call(.get, "/api/v1/notes/\(noteId)", as: home.senior)
            expectEqual(mine["visibility"], "private")
            expectEqual(mine["pinned"], .bool(true))

            /// Whether Ania's pull or snapshot shows the note (a "drop it" entry names it but shows nothing).
            func aniaSees() async throws -> Bool {
                let reply = try await ania.sync(home)
                let snapshot = try await home.call(.get, "/api/v1/sync/snapshot", as: home.caregiver)
                let inPull = Self.pulled(reply).contains { $0.field("id") == .string(noteId) && $0.field("fields") != .null }
                let inSnapshot = Self.pulled(snapshot, "entities").contains { $0.field("id") == .string(noteId) }
                return inPull || inSnapshot
            }
            try await expectEqual(aniaSees(), false)
            let ownSnapshot = try await home.call(.get, "/api/v1/sync/snapshot", as: home.senior)
            #expect(Self.pulled(ownSnapshot, "entities").contains { $0.field("id") == .string(noteId) })

            // Shared, she sees it; made private again, her pull tells her to drop it.
            _ = try await babcia.sync(home, [babcia.change("note", noteId, #"{"visibility": "shared"}"#)])
            let shared = try await ania.sync(home)
            #expect(Self.pulled(shared).contains { $0.field("id") == .string(noteId) && $0.field("deleted") == .bool(false) })
            _ = try await babcia.sync(home, [babcia.change("note", noteId, #"{"visibility": "private", "title": "Sekret"}"#)])
            let hidden = try await ania.sync(home)
            let dropped = try #require(Self.pulled(hidden).first { $0.field("id") == .string(noteId) })
            expectEqual(dropped.field("deleted"), .bool(true))
            expectEqual(dropped.field("fields"), .null, "not even the new title: \(dropped)")
            try await expectEqual(aniaSees(), false)

            // And she cannot touch it.
            let attempt = try await ania.sync(home, [ania.change("note", noteId, #"{"title": "Hej"}"#)])
            expectEqual(Self.results(attempt).first?.field("reason"), "not-found")
            expectEqual(Self.results(attempt).first?.field("current"), .null)
        }
    }

    @Test func twoDevicesAnsweringOneDoseOfflineLeaveOneDoseAsTheLaterSaid() async throws {
        try await CareHousehold.with { home in
            let soon = CareHousehold.inAnHour()
            let medicationId = try await home.addMedication(stock: 10, schedule: #"{"kind": "weekly", "times": ["\#(soon.time)"], "amount": 1}"#)
            let key = try await Self.firstDoseKey(home, on: soon.date)
            let babcia = try await SyncingDevice(token: home.senior, store: home.store)
            let ania = try await SyncingDevice(token: home.caregiver, store: home.store)

            let skipped = babcia.change("dose", key, #"{"status": "skipped", "reason": "Nudności"}"#)
            try await Task.sleep(for: .milliseconds(5))
            let taken = ania.change("dose", key, #"{"status": "taken"}"#)
            // The later stamp (Ania's "taken") syncs first; Babcia's earlier "skipped" loses.
            expectEqual(Self.results(try await ania.sync(home, [taken])).first?.field("status"), "applied")
            let late = try await babcia.sync(home, [skipped])
            expectEqual(Self.results(late).first?.field("status"), "superseded")

            let doses = try await home.call(.get, "/api/v1/doses?personId=\(home.seniorId.text)&from=\(soon.date)&to=\(soon.date)", as: home.caregiver)
            let recorded = doses.list.filter { $0.field("key") == .string(key) }
            expectEqual(recorded.count, 1)
            expectEqual(recorded.first?.field("status"), "taken")
            try await expectEqual(Self.medication(home, medicationId)["stock"], .number(9))
        }
    }

    @Test func aSeniorsOfflineChangeToADoseHerCaregiverRecordedIsRefusedAsOnTheWeb() async throws {
        try await CareHousehold.with { home in
            let soon = CareHousehold.inAnHour()
            let medicationId = try await home.addMedication(stock: 10, schedule: #"{"kind": "weekly", "times": ["\#(soon.time)"], "amount": 1}"#)
            let key = try await Self.firstDoseKey(home, on: soon.date)
            let given = try await home.call(.post, "/api/v1/doses", as: home.caregiver, body: #"{"key": "\#(key)", "status": "taken"}"#)
            expectEqual(given.status, .created)
            let doseId = try #require(given["id"]?.text)

            // The web refuses her, and so does sync, even with the later stamp.
            let web = try await home.call(.patch, "/api/v1/doses/\(doseId)", as: home.senior, body: #"{"status": "skipped"}"#)
            expectEqual(web.status, .forbidden)
            let babcia = try await SyncingDevice(token: home.senior, store: home.store)
            let pushed = try await babcia.sync(home, [babcia.change("dose", doseId, #"{"status": "skipped"}"#)])
            let result = try #require(Self.results(pushed).first)
            expectEqual(result.field("status"), "rejected")
            expectEqual(result.field("reason"), "forbidden")
            expectEqual(result.field("current")?.field("fields")?.field("status"), "taken")
            try await expectEqual(home.call(.get, "/api/v1/doses/\(doseId)", as: home.caregiver)["status"], "taken")
            try await expectEqual(Self.medication(home, medicationId)["stock"], .number(9))
        }
    }

    @Test func aCursorOlderThanTheCompactedLogIsGoneAndASnapshotStartsAgain() async throws {
        try await CareHousehold.with { home in
            let ania = try await SyncingDevice(token: home.caregiver, store: home.store)
            let medicationId = try await home.addMedication(name: "Metformina", schedule: #"{"kind": "weekly", "times": ["08:00"], "amount": 1}"#)
            try await ania.sync(home)
            let staleCursor = ania.cursor
            _ = try await home.call(.patch, "/api/v1/medications/\(medicationId)", as: home.caregiver, body: #"{"name": "Metformina XR"}"#)
            // A schedule ended for good: its deletion must survive compaction.
            let schedules = try await home.call(.get, "/api/v1/medications/\(medicationId)/schedules", as: home.caregiver)
            let scheduleId = try #require(schedules.list.first?.field("id")?.text)
            let extra = try await home.call(.post, "/api/v1/medications/\(medicationId)/schedules", as: home.caregiver,
                                            body: #"{"kind": "weekly", "times": ["20:00"], "amount": 1}"#)
            expectEqual(extra.status, .created)
            try await expectEqual(home.call(.delete, "/api/v1/medications/\(medicationId)/schedules/\(scheduleId)", as: home.caregiver).status, .noContent)

            let removed = try await home.store.compactChanges(olderThan: -60)
            #expect(removed > 0)
            // What is left is the latest entry of each entity, deletions included.
            let log = try await home.store.changes(after: 0, limit: 10_000)
            #expect(log.contains { $0.entity == .schedule && $0.entityId == scheduleId && $0.op == .delete })
            #expect(log.filter { $0.entity == .medication && $0.entityId == medicationId }.count == 1)
            #expect(log.last?.seq ?? 0 > staleCursor)

            // Pushing with the old cursor applies nothing and says where to start again.
            let gone = try await ania.sync(home, [ania.change("medication", medicationId, #"{"form": "tabletki"}"#)])
            expectEqual(gone.status, .gone)
            expectEqual(gone["type"], "urn:hearth:problem:cursor-expired")
            expectEqual(gone["snapshot"], "/api/v1/sync/snapshot")
            #expect(try await Self.medication(home, medicationId)["form"] != "tabletki")

            let snapshot = try await home.call(.get, "/api/v1/sync/snapshot", as: home.caregiver)
            let entities = Self.pulled(snapshot, "entities")
            #expect(entities.first { $0.field("id") == .string(medicationId) }?.field("fields")?.field("name") == "Metformina XR")
            #expect(!entities.contains { $0.field("id") == .string(scheduleId) }, "the deleted schedule is not in the snapshot")
            ania.cursor = Int64(try #require(snapshot["cursor"]?.number))
            let resumed = try await ania.sync(home, [ania.change("medication", medicationId, #"{"form": "tabletki"}"#)])
            expectEqual(resumed.status, .ok)
            try await expectEqual(Self.medication(home, medicationId)["form"], "tabletki")


        }
    }

    @Test func badPushesGetAProblemAndApplyNothing() async throws {
        try await CareHousehold.with { home in
            let ania = try await SyncingDevice(token: home.caregiver, store: home.store)
            let medicationId = try await home.addMedication(name: "Metformina", schedule: #"{"kind": "weekly", "times": ["08:00"], "amount": 1}"#)
            let good = ania.change("medication", medicationId, #"{"name": "Zmieniona"}"#)
            let opId = UUID().uuidString
            let cases: [(String, String)] = [
                (#"{"opId": "\#(opId)", "entity": "pet", "id": "\#(medicationId)", "fields": {"name": "x"}, "hlc": "\#(ania.stamp())"}"#, "changes[1].entity"),
                (#"{"opId": "\#(opId)", "entity": "medication", "id": "\#(medicationId)", "fields": {"colour": "x"}, "hlc": "\#(ania.stamp())"}"#, "changes[1].fields.colour"),
                (#"{"opId": "\#(opId)", "entity": "medication", "id": "\#(medicationId)", "fields": {"active": "yes"}, "hlc": "\#(ania.stamp())"}"#, "changes[1].fields.active"),
                (#"{"opId": "\#(opId)", "entity": "medication", "id": "\#(medicationId)", "fields": {"name": "x"}, "hlc": "yesterday"}"#, "changes[1].hlc"),
                (#"{"opId": "\#(opId)", "entity": "medication", "id": "\#(medicationId)", "fields": {"name": "x"}, "hlc": "2026-11-23T08:00:00.000Z-0000-someone-else"}"#, "changes[1].hlc"),
                (#"{"opId": "not-a-uuid", "entity": "medication", "id": "\#(medicationId)", "fields": {"name": "x"}, "hlc": "\#(ania.stamp())"}"#, "changes[1].opId"),
                (#"{"opId": "\#(opId)", "entity": "medication", "id": "\#(medicationId)", "fields": {"name": "x"}, "deleted": true, "hlc": "\#(ania.stamp())"}"#, "changes[1].deleted"),
                (#"{"opId": "\#(opId)", "entity": "note", "id": "../etc", "fields": {"title": "x"}, "hlc": "\#(ania.stamp())"}"#, "changes[1].id"),
                (#"{"opId": "\#(opId)", "entity": "note", "id": "\#(UUID().uuidString)", "fields": {"text": "x"}, "hlc": "\#(ania.stamp())"}"#, "changes[1].fields.text"),
            ]
            for (bad, field) in cases {
                let reply = try await ania.sync(home, [good, bad])
                expectEqual(reply.status, .unprocessableContent, "\(bad)")
                expectEqual(reply.invalidFields, [field], "\(bad): \(String(describing: reply.body))")
            }
            for body in [#"{"changes": []}"#, #"{"since": -1}"#, #"{"since": 0, "limit": 0}"#, #"{"since": 0, "extra": 1}"#, #"[]"#] {
                let reply = try await home.call(.post, "/api/v1/sync", as: home.caregiver, body: body)
                expectEqual(reply.status, .unprocessableContent, "\(body)")
            }
            let tooMany = (0...SyncController.maximumPush).map { _ in ania.change("medication", medicationId, #"{"name": "x"}"#) }
            try await expectEqual(ania.sync(home, tooMany).status, .contentTooLarge)
            let ahead = try await home.call(.post, "/api/v1/sync", as: home.caregiver, body: #"{"since": 999999}"#)
            expectEqual(ahead.status, .gone)
            #expect(try await home.call(.post, "/api/v1/sync", body: #"{"since": 0}"#).status == .ok, "the admin may sync too")
            try await expectEqual(Self.medication(home, medicationId)["name"], "Metformina", "nothing of any bad push was applied")
        }
    }

    @Test func aDoseCorrectedOnTheWebIsNotUndoneByAnOlderOfflineCorrection() async throws {
        try await CareHousehold.with { home in
            let soon = CareHousehold.inAnHour()
            _ = try await home.addMedication(stock: 10, schedule: #"{"kind": "weekly", "times": ["\#(soon.time)"], "amount": 1}"#)
            let key = try await Self.firstDoseKey(home, on: soon.date)
            let babcia = try await SyncingDevice(token: home.senior, store: home.store)
            let answered = try await babcia.sync(home, [babcia.change("dose", key, #"{"status": "taken"}"#)])
            expectEqual(Self.results(answered).first?.field("status"), "applied")
            let listed = try await home.call(.get, "/api/v1/doses?personId=\(home.seniorId.text)&from=\(soon.date)&to=\(soon.date)", as: home.caregiver)
            let doseId = try #require(listed.list.first { $0.field("key") == .string(key) }?.field("id")?.text)

            // Offline, Ania's phone notes a reason on the dose (by its id); then, on the web, it is corrected to skipped.
            let ania = try await SyncingDevice(token: home.caregiver, store: home.store)
            let older = ania.change("dose", doseId, #"{"status": "taken", "reason": "Z jedzeniem"}"#)
            try await Task.sleep(for: .milliseconds(5))
            let web = try await home.call(.patch, "/api/v1/doses/\(doseId)", as: home.caregiver, body: #"{"status": "skipped", "reason": "Wypluła"}"#)
            expectEqual(web.status, .ok)

            let late = try await ania.sync(home, [older])
            let result = try #require(Self.results(late).first)
            expectEqual(result.field("status"), "superseded")
            expectEqual(result.field("current")?.field("fields")?.field("status"), "skipped")
            let stored = try await home.call(.get, "/api/v1/doses/\(doseId)", as: home.caregiver)
            expectEqual(stored["status"], "skipped")
            expectEqual(stored["reason"], "Wypluła")
        }
    }

    @Test func smallPagesCarryEverythingOnceInOrder() async throws {
        try await CareHousehold.with { home in
            for name in ["A", "B", "C", "D"] {
                _ = try await home.addMedication(name: name, schedule: #"{"kind": "weekly", "times": ["08:00"], "amount": 1}"#)
            }
            let note = try await home.call(.post, "/api/v1/notes", as: home.senior, body: #"{"title": "Prywatna"}"#)
            expectEqual(note.status, .created)
            _ = try await home.call(.post, "/api/v1/notes", as: home.senior, body: #"{"title": "Wspólna", "visibility": "shared"}"#)

            let whole = try await home.call(.post, "/api/v1/sync", as: home.caregiver, body: #"{"since": 0, "limit": 2000}"#)
            expectEqual(whole["more"], .bool(false))
            var paged: [JSONValue] = []
            var cursor = 0.0
            var rounds = 0
            while rounds < 100 {
                rounds += 1
                let page = try await home.call(.post, "/api/v1/sync", as: home.caregiver, body: #"{"since": \#(Int(cursor)), "limit": 2}"#)
                paged += Self.pulled(page)
                let next = try #require(page["cursor"]?.number)
                #expect(next > cursor || page["more"] == .bool(false))
                cursor = next
                if page["more"] == .bool(false) { break }
            }
            #expect(rounds > 3, "many small pages")
            expectEqual(cursor, whole["cursor"]?.number)
            // Latest state of each entity, as the single page has it.
            var latest: [String: JSONValue] = [:]
            for item in paged { latest["\(item.field("entity") ?? .null)/\(item.field("id") ?? .null)"] = item.field("fields") }
            let expected = Dictionary(uniqueKeysWithValues: Self.pulled(whole).map { ("\($0.field("entity") ?? .null)/\($0.field("id") ?? .null)", $0.field("fields") ?? .null) })
            expectEqual(latest, expected)
            #expect(!paged.contains { $0.field("fields")?.field("title") == "Prywatna" })
            #expect(paged.contains { $0.field("fields")?.field("title") == "Wspólna" })
        }
    }

    @Test func aClockAFewMinutesAheadIsAcceptedButNotBeyondTheAllowedSkew() async throws {
        try await CareHousehold.with { home in
            let medicationId = try await home.addMedication(name: "Metformina", schedule: #"{"kind": "weekly", "times": ["08:00"], "amount": 1}"#)
            let slightly = try await SyncingDevice(token: home.caregiver, store: home.store, skew: 60_000)
            let beyond = try await SyncingDevice(token: home.caregiver, store: home.store, skew: Int64(HearthStore.defaultMaximumSkew * 1000) + 60_000)
            let fine = try await slightly.sync(home, [slightly.change("medication", medicationId, #"{"form": "tabletki"}"#)])
            expectEqual(Self.results(fine).first?.field("status"), "applied")
            let refused = try await beyond.sync(home, [beyond.change("medication", medicationId, #"{"form": "kapsułki"}"#)])
            expectEqual(Self.results(refused).first?.field("reason"), "clock-ahead")
            try await expectEqual(Self.medication(home, medicationId)["form"], "tabletki")
        }
    }

    /// A device's copy of a note's text: the hub's state and its own replica.
    static func noteText(from pulled: JSONValue?) throws -> NoteText {
        let encoded = try #require(pulled?.field("fields")?.field("textState")?.text)
        return try NoteText.decodeState([UInt8](try #require(Data(base64Encoded: encoded))), replica: ReplicaRange.random())
    }

    static func batch(_ operations: [NoteOperation?]) -> String {
        #"{"operations": "\#(Data(NoteOperation.encode(operations.compactMap { $0 })).base64EncodedString())"}"#
    }

    @Test func noteTextTypedOfflineOnTwoDevicesMergesAndAResentBatchAddsNothing() async throws {
        try await CareHousehold.with { home in
            let babcia = try await SyncingDevice(token: home.senior, store: home.store)
            let ania = try await SyncingDevice(token: home.caregiver, store: home.store)
            let noteId = UUID().uuidString.lowercased()

            // Created offline with its first line, shared, in one push.
            let start = NoteText(replica: ReplicaRange.random())
            let created = try await babcia.sync(home, [
                babcia.change("note", noteId, #"{"title": "Zakupy", "visibility": "shared"}"#),
                babcia.change("noteText", noteId, Self.batch([try start.insert("mleko\n", at: 0)])),
            ])
            #expect(Self.results(created).map { $0.field("status") } == ["applied", "applied"])
            let pulled = try await ania.sync(home)
            let aniaText = try Self.noteText(from: Self.pulled(pulled).first { $0.field("id") == .string(noteId) })
            expectEqual(aniaText.text, "mleko\n")

            // Both type offline: Babcia at the end, Ania at the start; Ania also deletes "mleko".
            let babciaTyping = Self.batch([try start.insert("chleb ąę 🍞\n", at: 6)])
            let aniaTyping = Self.batch([try aniaText.insert("Lista:\n", at: 0), try aniaText.delete(at: 7, length: 5)])
            let aniaChange = ania.change("noteText", noteId, aniaTyping)
            expectEqual(Self.results(try await ania.sync(home, [aniaChange])).first?.field("status"), "applied")
            expectEqual(Self.results(try await babcia.sync(home, [babcia.change("noteText", noteId, babciaTyping)])).first?.field("status"), "applied")

            let stored = try await home.call(.get, "/api/v1/notes/\(noteId)", as: home.caregiver)
            expectEqual(stored["text"], "Lista:\n\nchleb ąę 🍞\n")
            // Each device's pull carries the merged state; its own copy merged into it agrees.
            let aniaPull = try await ania.sync(home)
            let merged = try Self.noteText(from: Self.pulled(aniaPull).first { $0.field("id") == .string(noteId) })
            expectEqual(merged.text, "Lista:\n\nchleb ąę 🍞\n")
            #expect(Self.pulled(aniaPull).first { $0.field("id") == .string(noteId) }?.field("fields")?.field("text") == "Lista:\n\nchleb ąę 🍞\n")

            // A lost response: the same batch again (even under a new opId) adds nothing.
            let again = try await ania.sync(home, [ania.change("noteText", noteId, aniaTyping)])
            expectEqual(Self.results(again).first?.field("status"), "applied")
            try await expectEqual(home.call(.get, "/api/v1/notes/\(noteId)", as: home.caregiver)["text"], "Lista:\n\nchleb ąę 🍞\n")

            // Made private, Ania may not see it: her typing is refused with nothing shown; nor into a note in Trash.
            _ = try await babcia.sync(home, [babcia.change("note", noteId, #"{"visibility": "private"}"#)])
            let refused = try await ania.sync(home, [ania.change("noteText", noteId, Self.batch([try merged.insert("x", at: 0)]))])
            expectEqual(Self.results(refused).first?.field("reason"), "not-found")
            expectEqual(Self.results(refused).first?.field("current"), .null)
            _ = try await babcia.sync(home, [babcia.change("note", noteId, #"{"visibility": "shared"}"#)])
            _ = try await babcia.sync(home, [babcia.change("note", noteId, "{}", deleted: true)])
            let binned = try await ania.sync(home, [ania.change("noteText", noteId, Self.batch([try merged.insert("!", at: 1)]))])
            expectEqual(Self.results(binned).first?.field("reason"), "in-trash")
            #expect(Self.results(binned).first?.field("current")?.field("fields")?.field("text") == "Lista:\n\nchleb ąę 🍞\n",
                    "the device rolls back to the hub's text")

            // Operations that do not decode, or name characters the hub never had.
            _ = try await babcia.sync(home, [babcia.change("note", noteId, "{}", deleted: false)])
            let garbage = try await ania.sync(home, [ania.change("noteText", noteId, #"{"operations": "AAEC"}"#)])
            expectEqual(Self.results(garbage).first?.field("reason"), "bad-operations")
            let orphan = NoteText(replica: 99)
            _ = try orphan.insert("abc", at: 0)
            let dangling = try await ania.sync(home, [ania.change("noteText", noteId, Self.batch([try orphan.insert("z", at: 3)]))])
            expectEqual(Self.results(dangling).first?.field("status"), "rejected")
            try await expectEqual(home.call(.get, "/api/v1/notes/\(noteId)", as: home.caregiver)["text"], "Lista:\n\nchleb ąę 🍞\n")
        }
    }
}
