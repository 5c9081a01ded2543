import Foundation
import HearthCore
@testable import HearthServer
import HearthStore
import HTTPTypes
import HearthTestSupport
import Testing

/// `/api/v1/medications` as a caregiver, a senior and a stranger use it.
@Suite struct MedicationRoutesTests {
    @Test func aCaregiverAddsAMedicationWithItsScheduleAndTheSeniorSeesIt() async throws {
        try await CareHousehold.with { home in
            // given Ania, who looks after Babcia
            // when she adds a twice-daily medicine with 30 tablets
            let created = try await home.call(.post, "/api/v1/medications", as: home.caregiver, body: """
                {"personId": "\(home.seniorId.text)", "name": " Metformina ", "strength": "500 mg", "stock": 30,
                 "schedules": [{"kind": "weekly", "times": ["20:00", "08:00"], "amount": 1}]}
                """)
            // then it is stored, with its schedule and how long the stock lasts
            expectEqual(created.status, .created)
            let id = try #require(created["id"]?.text)
            expectEqual(created.location, "/api/v1/medications/\(id)")
            expectEqual(created["name"], "Metformina")
            expectEqual(created["daysRemaining"], .number(15))
            let schedule = try #require(created["schedules"].flatMap { if case .array(let s) = $0 { s.first } else { nil } })
            expectEqual(schedule.field("times"), .array(["08:00", "20:00"]))
            #expect(schedule.field("weekdays") == .array((1...7).map { .number(Double($0)) }))

            let seen = try await home.call(.get, "/api/v1/medications", as: home.senior)
            #expect(seen.list.map { $0.field("id") } == [.string(id)])
            try await expectEqual(home.call(.get, "/api/v1/medications?personId=\(home.seniorId.text)", as: home.caregiver).list.count, 1)
        }
    }

    @Test func aSeniorAnAdminLetsManageHerOwnMedicationsAddsAndStopsThemHerself() async throws {
        try await CareHousehold.with { home in
            let medicine = """
                {"personId": "\(home.seniorId.text)", "name": "Witamina D", "schedules": [{"kind": "weekly", "times": ["09:00"], "amount": 1}]}
                """
            // Read-only for her until an admin says otherwise; not her caregiver's to say.
            try await expectEqual(home.call(.post, "/api/v1/medications", as: home.senior, body: medicine).status, .forbidden)
            let senior = "/api/v1/people/\(home.seniorId.text)"
            #expect(try await home.call(.patch, senior, as: home.caregiver, body: #"{"managesOwnMedications": true}"#).status == .forbidden)
            let caregiver = "/api/v1/people/\(home.caregiverId.text)"
            let notASenior = try await home.call(.patch, caregiver, body: #"{"managesOwnMedications": true}"#)
            #expect(notASenior.status == .unprocessableContent && notASenior.invalidFields == ["managesOwnMedications"])
            let allowed = try await home.call(.patch, senior, body: #"{"managesOwnMedications": true}"#)
            #expect(allowed.status == .ok && allowed["managesOwnMedications"] == .bool(true))

            let created = try await home.call(.post, "/api/v1/medications", as: home.senior, body: medicine)
            expectEqual(created.status, .created)
            let id = try #require(created["id"]?.text)
            #expect(try await home.call(.patch, "/api/v1/medications/\(id)", as: home.senior, body: #"{"active": false}"#).status == .ok)
            // Her caregiver still manages them too; taken back, she reads them again.
            try await expectEqual(home.call(.get, "/api/v1/medications/\(id)", as: home.caregiver).status, .ok)
            _ = try await home.call(.patch, senior, body: #"{"managesOwnMedications": false}"#)
            #expect(try await home.call(.patch, "/api/v1/medications/\(id)", as: home.senior, body: #"{"active": true}"#).status == .forbidden)
        }
    }

    @Test(arguments: [
        (#"{"kind": "weekly", "times": ["25:00"], "amount": 1}"#, "schedules.1.times"),
        (#"{"kind": "weekly", "times": [], "amount": 1}"#, "schedules.1.times"),
        (#"{"kind": "weekly", "times": ["08:00"], "amount": 1, "startDate": "2026-05-02", "endDate": "2026-05-01"}"#, "schedules.1.endDate"),
        (#"{"kind": "weekly", "times": ["08:00"], "amount": 0}"#, "schedules.1.amount"),
        (#"{"kind": "weekly", "times": ["08:00"]}"#, "schedules.1.amount"),
        (#"{"kind": "hourly", "times": ["08:00"], "amount": 1}"#, "schedules.1.kind"),
        (#"{"kind": "everyNDays", "times": ["08:00"], "amount": 1}"#, "schedules.1.interval"),
    ])
    func aWrongScheduleIsNamedAndNothingIsWritten(schedule: String, field: String) async throws {
        try await CareHousehold.with { home in
            let reply = try await home.call(.post, "/api/v1/medications", as: home.caregiver, body: """
                {"personId": "\(home.seniorId.text)", "name": "Metformina",
                 "schedules": [{"kind": "weekly", "times": ["08:00"], "amount": 1}, \(schedule)]}
                """)
            // The second schedule is the wrong one; the first alone would be fine.
            expectEqual(reply.status, .unprocessableContent)
            expectEqual(reply["type"], "urn:hearth:problem:invalid")
            expectEqual(reply.invalidFields, [field], "\(String(describing: reply.body))")
            #expect(try await home.call(.get, "/api/v1/medications", as: home.caregiver).list.isEmpty)
            #expect(try await home.store.medications(of: [home.seniorId], includingInactive: true).isEmpty)
        }
    }

    @Test func aWrongMedicationAndAWrongScheduleAreToldTogether() async throws {
        try await CareHousehold.with { home in
            let reply = try await home.call(.post, "/api/v1/medications", as: home.caregiver, body: """
                {"personId": "\(home.seniorId.text)", "name": "", "stock": -1,
                 "schedules": [{"kind": "everyNHours", "interval": 4, "from": "08:00", "until": "7:60", "amount": 1}]}
                """)
            expectEqual(reply.status, .unprocessableContent)
            expectEqual(reply.invalidFields, ["name", "stock", "schedules.0.until"])
        }
    }

    @Test func aScheduleAddedLaterNamesItsWrongTime() async throws {
        try await CareHousehold.with { home in
            let id = try await home.addMedication(schedule: #"{"kind": "weekly", "times": ["08:00"], "amount": 1}"#)
            let reply = try await home.call(.post, "/api/v1/medications/\(id)/schedules", as: home.caregiver,
                                            body: #"{"kind": "weekly", "times": ["25:00"], "amount": 1}"#)
            expectEqual(reply.status, .unprocessableContent)
            expectEqual(reply.invalidFields, ["times"])
            try await expectEqual(home.call(.get, "/api/v1/medications/\(id)/schedules", as: home.senior).list.count, 1)
        }
    }

    @Test func onlyLinkedCaregiversChangeTheListAndStrangersDoNotSeeIt() async throws {
        try await CareHousehold.with { home in
            let body = #"{"personId": "\#(home.seniorId.text)", "name": "Aspiryna"}"#
            // A senior sees their list but does not change it; a stranger does not even see it.
            try await expectEqual(home.call(.post, "/api/v1/medications", as: home.senior, body: body).status, .forbidden)
            try await expectEqual(home.call(.post, "/api/v1/medications", as: home.stranger, body: body).status, .notFound)

            let id = try await home.addMedication(schedule: #"{"kind": "weekly", "times": ["08:00"], "amount": 1}"#)
            try await expectEqual(home.call(.get, "/api/v1/medications/\(id)", as: home.senior).status, .ok)
            try await expectEqual(home.call(.get, "/api/v1/medications/\(id)", as: home.stranger).status, .notFound)
            #expect(try await home.call(.patch, "/api/v1/medications/\(id)", as: home.senior, body: #"{"name": "X"}"#).status == .forbidden)
            #expect(try await home.call(.patch, "/api/v1/medications/\(id)", as: home.stranger, body: #"{"name": "X"}"#).status == .notFound)
            #expect(try await home.call(.get, "/api/v1/medications", as: home.stranger).list.isEmpty)
            try await expectEqual(home.call(.get, "/api/v1/medications?personId=\(home.seniorId.text)", as: home.stranger).status, .notFound)
            try await expectEqual(home.store.medication(id: try #require(UUID(uuidString: id)))?.name, "Metformina")
        }
    }

    @Test func editingKeepsEveryRevisionAndStoppingKeepsTheMedication() async throws {
        try await CareHousehold.with { home in
            let id = try await home.addMedication(stock: 20, schedule: #"{"kind": "weekly", "times": ["08:00"], "amount": 1}"#)

            // An absent field stays; null clears a number nobody counts any more.
            let edited = try await home.call(.patch, "/api/v1/medications/\(id)", as: home.caregiver,
                                             body: #"{"instructions": "with food", "stock": null}"#)
            expectEqual(edited.status, .ok)
            expectEqual(edited["instructions"], "with food")
            expectEqual(edited["stock"], .null)
            expectEqual(edited["packageSize"], .number(30))
            expectEqual(edited["daysRemaining"], .null)

            let stopped = try await home.call(.delete, "/api/v1/medications/\(id)", as: home.caregiver)
            expectEqual(stopped.status, .ok)
            expectEqual(stopped["active"], .bool(false))
            #expect(try await home.call(.get, "/api/v1/medications", as: home.senior).list.isEmpty)
            try await expectEqual(home.call(.get, "/api/v1/medications?inactive=1", as: home.senior).list.count, 1)

            let history = try await home.call(.get, "/api/v1/medications/\(id)/history", as: home.senior)
            #expect(history.list.map { $0.field("revision") } == [.number(1), .number(2), .number(3)])
            expectEqual(history.list.first?.field("medication")?.field("instructions"), "")
            expectEqual(history.list.first?.field("actor")?.text?.hasPrefix("device:"), true)
        }
    }

    @Test func aRefillAddsAPackage() async throws {
        try await CareHousehold.with { home in
            let id = try await home.addMedication(stock: 2, schedule: #"{"kind": "weekly", "times": ["08:00"], "amount": 1}"#)
            let refilled = try await home.call(.post, "/api/v1/medications/\(id)/refill", as: home.caregiver)
            expectEqual(refilled.status, .ok)
            expectEqual(refilled["stock"], .number(32))
            let twice = try await home.call(.post, "/api/v1/medications/\(id)/refill", as: home.caregiver, body: #"{"packages": 2}"#)
            expectEqual(twice["stock"], .number(92))
            try await expectEqual(home.call(.post, "/api/v1/medications/\(id)/refill", as: home.senior).status, .forbidden)
        }
    }

    @Test func aScheduleIsReplacedAndRemoved() async throws {
        try await CareHousehold.with { home in
            let id = try await home.addMedication(schedule: #"{"kind": "weekly", "times": ["08:00"], "amount": 1, "startDate": "2026-01-05"}"#)
            let schedules = try await home.call(.get, "/api/v1/medications/\(id)/schedules", as: home.caregiver).list
            let scheduleId = try #require(schedules.first?.field("id")?.text)

            let replaced = try await home.call(.put, "/api/v1/medications/\(id)/schedules/\(scheduleId)", as: home.caregiver,
                                               body: #"{"kind": "everyNDays", "interval": 2, "times": ["09:30"], "amount": 0.5}"#)
            expectEqual(replaced.status, .ok)
            expectEqual(replaced["id"]?.text, scheduleId)
            expectEqual(replaced["amount"], .number(0.5))
            expectEqual(replaced["startDate"], "2026-01-05", "the schedule keeps its start, and its every-other-day rhythm")

            let added = try await home.call(.post, "/api/v1/medications/\(id)/schedules", as: home.caregiver,
                                            body: #"{"kind": "asNeeded", "minimumIntervalMinutes": 240, "amount": 1}"#)
            expectEqual(added.status, .created)
            try await expectEqual(home.call(.get, "/api/v1/medications/\(id)/schedules", as: home.senior).list.count, 2)

            try await expectEqual(home.call(.delete, "/api/v1/medications/\(id)/schedules/\(scheduleId)", as: home.senior).status, .forbidden)
            try await expectEqual(home.call(.delete, "/api/v1/medications/\(id)/schedules/\(scheduleId)", as: home.caregiver).status, .noContent)
            try await expectEqual(home.call(.delete, "/api/v1/medications/\(id)/schedules/\(scheduleId)", as: home.caregiver).status, .notFound)
            try await expectEqual(home.call(.get, "/api/v1/medications/\(id)/schedules", as: home.senior).list.count, 1)
        }
    }
}
