import Foundation
import GRDB
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HearthCore
import HearthHubTestSupport
@testable import HearthKit
import HearthStore
import HearthTestSupport
import Testing

/// HearthKit clients with their own SQLite mirrors against a live hub on
/// loopback: offline edits, coming back in either order, lost responses,
/// wrong clocks, a compacted log, and what a caregiver may not see.
@Suite(.serialized) struct HearthKitSyncTests {
    static func client(_ home: LoopbackHousehold, _ token: String, port: Int? = nil, mirror: HearthMirror? = nil) throws -> HearthClient {
        HearthClient(baseURL: URL(string: "http://127.0.0.1:\(port ?? home.port)/")!, token: token, store: try mirror ?? HearthMirror.inMemory())
    }

    @Test func twoClientsOfflineConvergeWithTheHubWhicheverComesBackFirst() async throws {
        for aniaFirst in [true, false] {
            try await LoopbackHousehold.with { home in
                let soon = home.inAnHour()
                let medicationId = try await home.addMedication(name: "Metformina", time: soon.time)
                let created = try await home.call("POST", "/api/v1/notes", as: home.senior,
                                                  body: #"{"title": "Zakupy", "text": "mleko\n", "visibility": "shared"}"#, expect: 201)
                let noteId = try #require(created.field("id")?.string.flatMap(UUID.init(uuidString:)))
                let ania = try Self.client(home, home.caregiver)
                let admin = try Self.client(home, home.admin)
                try await ania.sync()
                try await admin.sync()
                let planned = try #require(try await ania.mirror.today(on: soon.date).first)
                expectEqual(planned.status, .planned)
                try await expectEqual(admin.mirror.note(id: noteId)?.text, "mleko\n")

                // Both offline. Ania renames the medication and writes its instructions, types at the
                // note's start, and answers the dose taken; the admin, a moment later, renames it too,
                // types at the end, and answers the same dose skipped.
                try await ania.mirror.updateMedication(id: medicationId, MedicationChanges(name: "Metformina 500", instructions: "Po jedzeniu"))
                try await ania.mirror.editNoteText(id: noteId, at: 0, inserting: "Lista:\n")
                try await ania.mirror.record(doseKey: planned.key, status: .taken)
                try await Task.sleep(for: .milliseconds(5))
                try await admin.mirror.updateMedication(id: medicationId, MedicationChanges(name: "Glucophage"))
                try await admin.mirror.editNoteText(id: noteId, at: 6, inserting: "chleb 🍞\n")
                try await admin.mirror.record(doseKey: planned.key, status: .skipped)
                // Offline the mirror shows each device its own edits.
                try await expectEqual(ania.mirror.note(id: noteId)?.text, "Lista:\nmleko\n")
                try await expectEqual(ania.mirror.today(on: soon.date).first?.waitingToSync, true)
                try await expectEqual(ania.mirror.pendingCount(), 3)

                let (first, second) = aniaFirst ? (ania, admin) : (admin, ania)
                try await first.sync()
                try await second.sync()
                try await first.sync()
                try await expectEqual(ania.mirror.pendingCount(), 0)
                try await expectEqual(admin.mirror.pendingCount(), 0)

                // The hub: the later rename, Ania's instructions, both typings, one dose as the admin said.
                let stored = try await home.medication(medicationId)
                expectEqual(stored.field("name"), "Glucophage", "aniaFirst: \(aniaFirst)")
                expectEqual(stored.field("instructions"), "Po jedzeniu")
                try await expectEqual(home.note(noteId).field("text"), "Lista:\nmleko\nchleb 🍞\n")
                let doses = try await home.call("GET", "/api/v1/doses?personId=\(home.seniorId.uuidString.lowercased())&from=\(soon.date)&to=\(soon.date)", as: home.caregiver)
                let recorded = (doses.field("doses") ?? doses).array?.filter { $0.field("key") == .string(planned.key) } ?? []
                expectEqual(recorded.count, 1, "no dose is doubled: \(doses)")
                expectEqual(recorded.first?.field("status"), "skipped")

                // Both mirrors equal the hub.
                for client in [ania, admin] {
                    let medication = try #require(try await client.mirror.medications().first { $0.id == medicationId })
                    #expect(medication.name == "Glucophage" && medication.instructions == "Po jedzeniu")
                    expectEqual(medication.stock, stored.field("stock")?.double)
                    try await expectEqual(client.mirror.note(id: noteId)?.text, "Lista:\nmleko\nchleb 🍞\n")
                    let dose = try #require(try await client.mirror.today(on: soon.date).first)
                    expectEqual(dose.status, .skipped)
                }
            }
        }
    }

    @Test func aPushWhoseAnswerIsLostIsSentAgainAndAppliedOnce() async throws {
        try await LoopbackHousehold.with { home in
            let soon = home.inAnHour()
            let medicationId = try await home.addMedication(name: "Bisoprolol", stock: 10, time: soon.time)
            let proxy = try await LossyProxy(hubPort: home.port)
            let ania = try Self.client(home, home.caregiver, port: proxy.port)
            try await ania.sync()
            let key = try #require(try await ania.mirror.today(on: soon.date).first?.key)

            try await ania.mirror.record(doseKey: key, status: .taken)
            let note = try await ania.mirror.createNote(title: "Wizyta", text: "Pytać o ciśnienie", shared: true)
            proxy.armCut()
            // The hub commits, the answer never arrives; whatever the HTTP stack made of it,
            // the next sync sends the same changes again.
            _ = try? await ania.sync()
            try await ania.sync()
            expectEqual(proxy.cutCount, 1)
            #expect(proxy.syncRequests >= 3, "the lost push went to the hub twice")
            try await expectEqual(ania.mirror.pendingCount(), 0)

            try await expectEqual(home.medication(medicationId).field("stock"), .number(9), "one dose taken, one tablet gone")
            try await expectEqual(home.note(note).field("text"), "Pytać o ciśnienie")
            try await expectEqual(ania.mirror.today(on: soon.date).first?.status, .taken)
            try await proxy.shutdown()
        }
    }

    @Test func anOutboxEntryInFlightWhenTheAppDiedIsSentOnTheNextStart() async throws {
        try await LoopbackHousehold.with { home in
            let medicationId = try await home.addMedication(name: "Atorwastatyna", time: "21:00")
            let directory = try TemporaryDirectory()
            let path = directory.url.appendingPathComponent("mirror.sqlite").path
            do {
                let ania = try Self.client(home, home.caregiver, mirror: try HearthMirror(path: path))
                try await ania.sync()
                try await ania.mirror.updateMedication(id: medicationId, MedicationChanges(strength: "20 mg"))
                // Taken for a push that never got through; then the app is gone.
                let (taken, _) = try await ania.mirror.takeOutbox(limit: 500)
                expectEqual(taken.count, 1)
            }
            let restarted = try Self.client(home, home.caregiver, mirror: try HearthMirror(path: path))
            try await expectEqual(restarted.mirror.pendingCount(), 1)
            try await expectEqual(restarted.mirror.medications().first?.strength, "20 mg", "the edit survived in the mirror")
            try await restarted.sync()
            try await expectEqual(home.medication(medicationId).field("strength"), "20 mg")
            try await expectEqual(restarted.mirror.pendingCount(), 0)
        }
    }

    @Test func aClockHoursOffCannotOverwriteWhatItHasNotSeen() async throws {
        try await LoopbackHousehold.with { home in
            let medicationId = try await home.addMedication(name: "Metformina", time: "08:00")
            let ania = try Self.client(home, home.caregiver)
            try await ania.sync()

            // Her phone's clock is 3 hours behind; the admin renames it on the web after her edit.
            try await ania.mirror.updateMedication(id: medicationId, MedicationChanges(name: "Old name"), now: Date().addingTimeInterval(-3 * 3600))
            try await home.call("PATCH", "/api/v1/medications/\(medicationId.uuidString.lowercased())", as: home.admin, body: #"{"name": "Web name"}"#)
            try await ania.sync()
            try await expectEqual(home.medication(medicationId).field("name"), "Web name")
            try await expectEqual(ania.mirror.medications().first?.name, "Web name", "the mirror rolled back to what stands")

            // Now 3 hours ahead: refused, and rolled back too.
            try await ania.mirror.updateMedication(id: medicationId, MedicationChanges(name: "Future name"), now: Date().addingTimeInterval(3 * 3600))
            try await ania.sync()
            try await expectEqual(home.medication(medicationId).field("name"), "Web name")
            try await expectEqual(ania.mirror.medications().first?.name, "Web name")

            // Having heard the hub's clock, her next edit (by her slow clock) wins.
            try await ania.mirror.updateMedication(id: medicationId, MedicationChanges(name: "Her name"), now: Date().addingTimeInterval(-3 * 3600))
            try await ania.sync()
            try await expectEqual(home.medication(medicationId).field("name"), "Her name")
        }
    }

    @Test(arguments: [3.0, -3.0])
    func aDeviceWhoseClockIsHoursOffLearnsTheHubsTimeAndItsEditsLand(hoursOff: Double) async throws {
        try await LoopbackHousehold.with { home in
            let medicationId = try await home.addMedication(name: "Metformina", time: "08:00")
            // A kiosk with no clock battery: its clock stays hours off, for good.
            let skew = hoursOff * 3600
            let kioskClock = DeviceClock(now: { Date().addingTimeInterval(skew) }, sleepUntil: { _ in })
            let kiosk = try Self.client(home, home.caregiver, mirror: try HearthMirror(writer: DatabaseQueue(), clock: kioskClock))
            try await kiosk.sync()

            // Each edit stamped by the kiosk's own clock: corrected by the hub's time, none is refused.
            for name in ["Kiosk name", "Kiosk name 2"] {
                try await kiosk.mirror.updateMedication(id: medicationId, MedicationChanges(name: name), now: kioskClock.now())
                try await kiosk.sync()
                try await expectEqual(home.medication(medicationId).field("name")?.string, name)
                #expect(try await kiosk.mirror.setAsideChanges().isEmpty)
            }
            // And ordered by when it really happened: a web edit after it wins, one before it loses.
            try await home.call("PATCH", "/api/v1/medications/\(medicationId.uuidString.lowercased())", as: home.admin, body: #"{"name": "Web name"}"#)
            try await kiosk.sync()
            try await expectEqual(kiosk.mirror.medications().first?.name, "Web name")
            try await kiosk.mirror.updateMedication(id: medicationId, MedicationChanges(name: "Kiosk last"), now: kioskClock.now())
            try await kiosk.sync()
            try await expectEqual(home.medication(medicationId).field("name")?.string, "Kiosk last")
        }
    }

    @Test func whatTheHubKeepsOtherwiseThanSentIsWhatTheDeviceShows() async throws {
        try await LoopbackHousehold.with { home in
            let soon = home.inAnHour()
            let medicationId = try await home.addMedication(name: "Metformina", time: soon.time)
            let ania = try Self.client(home, home.caregiver)
            try await ania.sync()
            let key = try #require(try await ania.mirror.today(on: soon.date).first?.key)

            // A name typed with spaces around it, and a dose given "in an hour"
            // by a slip of the finger: the hub trims the one and brings the
            // other back to now, and the phone's copy follows.
            try await ania.mirror.updateMedication(id: medicationId, MedicationChanges(name: "  Metformina XR  "))
            try await ania.mirror.record(doseKey: key, status: .taken, takenAt: Date().addingTimeInterval(3600))
            try await ania.sync()
            try await expectEqual(home.medication(medicationId).field("name"), "Metformina XR")
            try await expectEqual(ania.mirror.medications().first?.name, "Metformina XR")
            let recorded = try await home.store.doses(of: [home.seniorId], from: .distantPast, to: .distantFuture)
            let hubTakenAt = try #require(recorded.first { $0.key == key }?.takenAt)
            let dose = try #require(try await ania.mirror.today(on: soon.date).first)
            #expect(dose.takenAt == hubTakenAt && !dose.waitingToSync)
            #expect(hubTakenAt <= Date())
        }
    }

    @Test func aCursorOlderThanTheCompactedLogRecoversFromASnapshotKeepingWhatWaits() async throws {
        try await LoopbackHousehold.with { home in
            let medicationId = try await home.addMedication(name: "Metformina", time: "08:00")
            let ania = try Self.client(home, home.caregiver)
            try await ania.sync()
            try await ania.mirror.updateMedication(id: medicationId, MedicationChanges(appearance: "biała, okrągła"))
            // Meanwhile the household keeps going and the hub compacts its whole log.
            let doomed = try await ania.mirror.createNote(title: "Do kosza", shared: true)
            try await ania.sync()
            try await home.call("DELETE", "/api/v1/notes/\(doomed.uuidString.lowercased())", as: home.admin)
            try await home.call("PATCH", "/api/v1/medications/\(medicationId.uuidString.lowercased())", as: home.admin, body: #"{"strength": "500 mg"}"#)
            try await Task.sleep(for: .milliseconds(20))
            #expect(try await home.store.compactChanges(olderThan: 0) > 0)

            let report = try await ania.sync()
            #expect(report.fromSnapshot)
            let medication = try #require(try await ania.mirror.medications().first { $0.id == medicationId })
            expectEqual(medication.strength, "500 mg")
            expectEqual(medication.appearance, "biała, okrągła", "the edit that waited was pushed after the snapshot")
            try await expectEqual(home.medication(medicationId).field("appearance"), "biała, okrągła")
            #expect(try await ania.mirror.notes().contains { $0.id == doomed } == false, "the deletion survived compaction")
        }
    }

    @Test func aFirstSyncStartsFromASnapshotSentGzipped() async throws {
        try await LoopbackHousehold.with { home in
            let medicationId = try await home.addMedication(name: "Metformina", time: "08:00")
            for index in 0..<30 {
                try await home.call("POST", "/api/v1/notes", as: home.senior,
                                    body: #"{"title": "Zakupy \#(index)", "text": "mleko\nchleb\n", "visibility": "shared"}"#, expect: 201)
            }
            // Renamed twice: the log holds three entries for it, a snapshot one.
            for name in ["Metformina 500", "Glucophage"] {
                try await home.call("PATCH", "/api/v1/medications/\(medicationId.uuidString.lowercased())", as: home.admin, body: #"{"name": "\#(name)"}"#)
            }
            let ania = try Self.client(home, home.caregiver)
            let report = try await ania.sync()
            #expect(report.fromSnapshot)
            try await expectEqual(ania.mirror.medications().first?.name, "Glucophage")
            try await expectEqual(ania.mirror.notes().count, 30)
            try await expectEqual(ania.mirror.note(id: try #require(try await ania.mirror.notes().first?.id))?.text, "mleko\nchleb\n")

            // What came over the wire was gzipped: far less than the JSON it unzipped to.
            var request = URLRequest(url: URL(string: "/api/v1/sync/snapshot", relativeTo: home.baseURL)!)
            request.setValue("Bearer \(home.caregiver)", forHTTPHeaderField: "Authorization")
            request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
            let (plain, _) = try await URLSession.shared.data(for: request)
            #expect(report.bytesReceived * 3 < plain.count, "\(report.bytesReceived) bytes for \(plain.count) of JSON")
            // The latest of each entity, not its history.
            let entities = try JSONText.value(from: plain).field("entities")?.array ?? []
            expectEqual(report.pulled, entities.count)
            #expect(entities.filter { $0.field("entity") == "medication" }.count == 1)
            #expect(try await home.store.changes(after: 0, limit: 1_000).count > entities.count)

            // Later syncs pull from the cursor.
            let next = try await ania.sync()
            #expect(!next.fromSnapshot && next.pulled == 0)
        }
    }

    @Test func aChangeTheHubRefusesAsItStandsIsSetAsideAndTheRestGetsThrough() async throws {
        try await LoopbackHousehold.with { home in
            let medicationId = try await home.addMedication(name: "Metformina", time: "08:00")
            let id = medicationId.uuidString.lowercased()
            let ania = try Self.client(home, home.caregiver)
            try await ania.sync()
            try await ania.mirror.updateMedication(id: medicationId, MedicationChanges(appearance: "biała"))
            let sent = try #require(try await ania.mirror.writer.read { db in try String.fetchOne(db, sql: "SELECT change FROM outbox") })
            try await ania.sync()

            // Queued in this order: a field this hub does not know (an app newer than its hub),
            // a good edit, and a change reusing an opId the hub has already applied.
            try await ania.mirror.writer.write { db in
                try HearthMirror.enqueue(.medication, id: id, fields: ["colour": "blue"], now: Date(), db)
            }
            try await ania.mirror.updateMedication(id: medicationId, MedicationChanges(strength: "500 mg"))
            guard case .object(var changed) = try JSONValue(jsonText: sent) else { Issue.record("not a change: \(sent)"); return }
            changed["fields"] = ["appearance": "żółta"]
            let reused = changed
            try await ania.mirror.writer.write { db in
                try db.execute(sql: "INSERT INTO outbox (opId, entity, entityId, change) VALUES (?, 'medication', ?, ?)",
                               arguments: [reused["opId"]?.string, id, try JSONValue.object(reused).jsonText()])
                try HearthMirror.layOver(OutboxEntry(seq: 0, opId: "", entity: "medication", entityId: id, change: .object(reused)), db)
            }
            try await expectEqual(ania.mirror.medications().first?.appearance, "żółta")

            let report = try await ania.sync()
            expectEqual(report.setAside, 2)
            try await expectEqual(ania.mirror.pendingCount(), 0, "nothing is left to hold the outbox back")
            let stored = try await home.medication(medicationId)
            expectEqual(stored.field("strength"), "500 mg", "the good edit got through")
            expectEqual(stored.field("appearance"), "biała")
            let mirrored = try #require(try await ania.mirror.medications().first)
            #expect(mirrored.strength == "500 mg" && mirrored.appearance == "biała", "the copy shows what the hub has")
            let fields = try await ania.mirror.writer.read { db in try HearthMirror.fields(.medication, id, db) }
            #expect(fields?["colour"] == nil)

            let aside = try await ania.mirror.setAsideChanges()
            expectEqual(aside.map(\.entityId), [id, id])
            #expect(aside.contains { $0.reason.contains("colour") }, "\(aside)")
            #expect(aside.contains { $0.opId == reused["opId"]?.string && $0.reason.contains("already used") }, "\(aside)")
            try await ania.mirror.forgetSetAsideChanges()
            #expect(try await ania.mirror.setAsideChanges().isEmpty)
            try await expectEqual(ania.sync().setAside, 0)
        }
    }

    @Test func aCaregiversMirrorNeverHoldsASeniorsPrivateNote() async throws {
        try await LoopbackHousehold.with { home in
            let babcia = try Self.client(home, home.senior)
            let ania = try Self.client(home, home.caregiver)
            // A mirror learns whose it is on its first sync; edits wait for that.
            await #expect(throws: HearthKitError.notConnected) { try await babcia.mirror.createNote(title: "Za wcześnie") }
            try await babcia.sync()
            let diary = try await babcia.mirror.createNote(title: "Pamiętnik", text: "Tylko dla mnie")
            let shared = try await babcia.mirror.createNote(title: "Zakupy", text: "mleko", shared: true)
            try await babcia.sync()
            try await ania.sync()
            try await expectEqual(ania.mirror.notes().map(\.id), [shared])
            let rows = try await ania.mirror.writer.read { db in
                try String.fetchAll(db, sql: "SELECT id FROM entities WHERE entity = 'note' UNION SELECT noteId FROM note_texts")
            }
            #expect(!rows.contains(diary.uuidString.lowercased()))

            // Shared, then made private again: gone from her mirror.
            try await babcia.mirror.updateNote(id: diary, shared: true)
            try await babcia.sync()
            try await ania.sync()
            try await expectEqual(ania.mirror.note(id: diary)?.text, "Tylko dla mnie")
            try await babcia.mirror.updateNote(id: diary, shared: false)
            try await babcia.sync()
            try await ania.sync()
            #expect(try await ania.mirror.note(id: diary) == nil)
        }
    }

    @Test func aNoteForTheCircleReadOnlyReachesHerCaregiversMirrorToReadAndNoOneElsesAndHerEditsDoNotStand() async throws {
        try await LoopbackHousehold.with { home in
            let babcia = try Self.client(home, home.senior)
            let ania = try Self.client(home, home.caregiver)
            let obcy = try Self.client(home, try await LoopbackHousehold.device(home.store, "Obcy", .caregiver))
            try await babcia.sync()
            let note = try await babcia.mirror.createNote(title: "Moje leki", text: "rano", visibility: .circle, readOnly: true)
            try await babcia.sync()
            try await ania.sync()
            try await obcy.sync()
            let mirrored = try #require(try await ania.mirror.note(id: note))
            #expect(mirrored.visibility == .circle && mirrored.readOnly && !mirrored.isShared)
            #expect(try await obcy.mirror.notes().isEmpty, "a caregiver who does not look after her never holds it")
            // Ania types into it offline: the hub refuses, and her mirror shows the hub's text again.
            try await ania.mirror.setNoteText(id: note, to: "rano i wieczorem")
            try await ania.mirror.updateNote(id: note, readOnly: false)
            try await ania.sync()
            try await expectEqual(home.store.note(id: note)?.text, "rano")
            try await expectEqual(home.store.note(id: note)?.readOnly, true)
            try await expectEqual(ania.mirror.note(id: note)?.text, "rano")
            // Refused one by one, the hub's value stands, as for anything she may not change: nothing waits to go again.
            try await expectEqual(ania.sync().pushed, 0)
        }
    }

    @Test func aRunningClientHearsOfAWebChangeAndItsObservationEmitsIt() async throws {
        try await LoopbackHousehold.with { home in
            let ania = try Self.client(home, home.caregiver)
            try await ania.sync()
            await ania.start()
            let mirror = ania.mirror
            let watcher = Task { () -> [MirroredNote]? in
                for try await notes in mirror.observeNotes() where !notes.isEmpty { return notes }
                return nil
            }
            try await home.call("POST", "/api/v1/notes", as: home.senior, body: #"{"title": "Lekarz", "text": "wtorek 10:00", "visibility": "shared"}"#, expect: 201)
            // The live stream wakes the loop; the sync lands; the observation emits.
            let deadline = Task {
                try await Task.sleep(for: .seconds(20))
                watcher.cancel()
            }
            let seen = try await watcher.value
            deadline.cancel()
            expectEqual(seen?.first?.title, "Lekarz")
            expectEqual(seen?.first?.text, "wtorek 10:00")
            await ania.stop()
        }
    }

    @Test func anUnreachableHubLeavesEveryEditWaitingOnTheDevice() async throws {
        try await LoopbackHousehold.with { home in
            let ania = try Self.client(home, home.caregiver)
            try await ania.sync()
            // The same mirror, through an address where no hub answers.
            let away = HearthClient(baseURL: URL(string: "http://127.0.0.1:1/")!, token: home.caregiver, store: ania.mirror)
            let note = try await away.createNote(title: "Offline", text: "napisane bez sieci", shared: true)
            await #expect(throws: HearthKitError.self) { try await away.sync() }
            await expectEqual(away.lastError?.isTemporary, true)
            try await expectEqual(ania.mirror.note(id: note)?.text, "napisane bez sieci")
            try await ania.sync()
            try await expectEqual(home.note(note).field("text"), "napisane bez sieci")
            // Refused before it is queued: what the hub would refuse anyway.
            await #expect(throws: HearthKitError.self) { try await ania.mirror.updateNote(id: note, title: String(repeating: "x", count: 201)) }
            try await expectEqual(ania.mirror.pendingCount(), 0)
        }
    }
}
