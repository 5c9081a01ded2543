import Foundation
import HearthCore
import HearthStore
import HearthTestSupport
import Testing

/// How people are told away from home, through the routes: each person's
/// own choice (hers and her admins' alone), the household's emergency
/// contacts (admins'), and what bad input gets.
@Suite struct AwayRoutesTests {
    @Test func aCaregiverChoosesTextsForHerselfAndNobodyElseSeesOrChangesIt() async throws {
        try await CareHousehold.with { home in
            let away = "/api/v1/people/\(home.caregiverId.text)/away"
            let first = try await home.call(.get, away, as: home.caregiver)
            expectEqual(first.status, .ok)
            expectEqual(first.body, ["sms": .bool(false), "push": .bool(false), "pushUrl": .null, "textsPossible": .bool(false), "pushPossible": .bool(false)], "nothing chosen: told at home only")

            let chosen = try await home.call(.put, away, as: home.caregiver, body: #"{"sms": true, "push": false}"#)
            expectEqual(chosen.status, .ok)
            #expect(chosen["sms"] == .bool(true) && chosen["push"] == .bool(false))
            try await expectEqual(home.call(.get, away, as: home.caregiver)["sms"], .bool(true))
            // The admin may see and change it; her senior and another caregiver hear of no such person.
            try await expectEqual(home.call(.get, away)["sms"], .bool(true))
            for token in [home.senior, home.stranger] {
                try await expectEqual(home.call(.get, away, as: token).status, .notFound)
                #expect(try await home.call(.put, away, as: token, body: #"{"sms": false, "push": false}"#).status == .notFound)
            }
            try await expectEqual(home.call(.get, away, as: home.caregiver)["sms"], .bool(true), "unchanged by them")
        }
    }

    @Test func choosingPushMakesASecretTopicThatNeverReachesTheChangeLog() async throws {
        try await CareHousehold.with { home in
            let away = "/api/v1/people/\(home.caregiverId.text)/away"
            #expect(try await home.call(.put, away, as: home.caregiver, body: #"{"sms": false, "push": true}"#).status == .ok)
            let record = try await home.store.awayChoice(of: home.caregiverId, visibleTo: try #require(try await home.store.actor(of: home.caregiverId)))
            let topic = try #require(record.pushTopic)
            #expect(topic.hasPrefix("hearth-") && topic.count >= 7 + 22, "128 random bits")
            let log = try await home.store.changes(after: 0, limit: 10_000)
            #expect(log.contains { $0.entity == .awayChoice })
            #expect(!log.contains { "\($0.payload)".contains(topic) }, "the topic is a secret")
            // Turned off and on again: the same topic, so her phone stays subscribed.
            _ = try await home.call(.put, away, as: home.caregiver, body: #"{"sms": false, "push": false}"#)
            _ = try await home.call(.put, away, as: home.caregiver, body: #"{"sms": false, "push": true}"#)
            let again = try await home.store.awayChoice(of: home.caregiverId, visibleTo: try #require(try await home.store.actor(of: home.caregiverId)))
            expectEqual(again.pushTopic, topic)
        }
    }

    @Test func badChoicesAreRefusedNamingTheFieldAndChangeNothing() async throws {
        try await CareHousehold.with { home in
            let away = "/api/v1/people/\(home.caregiverId.text)/away"
            let cases: [(String, String)] = [
                (#"{"sms": true}"#, "push"),
                (#"{"sms": "yes", "push": false}"#, "sms"),
                (#"{"sms": true, "push": false, "email": true}"#, "email"),
                (#"[true, false]"#, "body"),
            ]
            for (body, field) in cases {
                let refused = try await home.call(.put, away, as: home.caregiver, body: body)
                expectEqual(refused.status, .unprocessableContent, "\(body)")
                expectEqual(refused.invalidFields, [field], "\(body): \(refused.invalidFields)")
            }
            try await expectEqual(home.call(.get, away, as: home.caregiver).body, ["sms": .bool(false), "push": .bool(false), "pushUrl": .null, "textsPossible": .bool(false), "pushPossible": .bool(false)])
            try await expectEqual(home.call(.get, "/api/v1/people/\(UUID.random().text)/away").status, .notFound)
        }
    }

    @Test func anArchivedPersonIsToldNothingMoreAndHerTopicIsGone() async throws {
        try await CareHousehold.with { home in
            let away = "/api/v1/people/\(home.caregiverId.text)/away"
            _ = try await home.call(.put, away, as: home.caregiver, body: #"{"sms": true, "push": true}"#)
            try await expectEqual(home.call(.post, "/api/v1/people/\(home.caregiverId.text)/archive").status, .ok)
            try await expectEqual(home.call(.get, away).status, .notFound)
            // Restored, she starts again: nothing chosen, and a new topic if she chooses push.
            try await expectEqual(home.call(.post, "/api/v1/people/\(home.caregiverId.text)/restore").status, .ok)
            try await expectEqual(home.call(.get, away).body, ["sms": .bool(false), "push": .bool(false), "pushUrl": .null, "textsPossible": .bool(false), "pushPossible": .bool(false)])
        }
    }

    @Test func theDelaysAreReadByAnyoneSetByAdminsAndBadOnesRefusedNamingTheField() async throws {
        try await CareHousehold.with { home in
            let delays = "/api/v1/household/away-delays"
            #expect(try await home.call(.get, delays, as: home.caregiver).body
                == ["missedDoseAwayAfterMinutes": .number(15), "contactsAfterMinutes": .number(10)])
            let set = try await home.call(.put, delays, body: #"{"missedDoseAwayAfterMinutes": 30, "contactsAfterMinutes": 5}"#)
            #expect(set.status == .ok && set["missedDoseAwayAfterMinutes"] == .number(30))
            try await expectEqual(home.store.escalationSettings(), EscalationSettings(missedDoseAwayAfterMinutes: 30, contactsAfterMinutes: 5))
            #expect(try await home.call(.put, delays, as: home.caregiver, body: #"{"missedDoseAwayAfterMinutes": 1, "contactsAfterMinutes": 1}"#)
                .status == .forbidden)
            for (body, field) in [(#"{"missedDoseAwayAfterMinutes": 30, "contactsAfterMinutes": 0}"#, "contactsAfterMinutes"),
                                  (#"{"missedDoseAwayAfterMinutes": 1.5, "contactsAfterMinutes": 5}"#, "missedDoseAwayAfterMinutes"),
                                  (#"{"missedDoseAwayAfterMinutes": 30, "contactsAfterMinutes": 5, "extra": 1}"#, "extra"),
                                  (#"{"contactsAfterMinutes": 5}"#, "missedDoseAwayAfterMinutes")] {
                let refused = try await home.call(.put, delays, body: body)
                expectEqual(refused.status, .unprocessableContent, "\(body)")
                #expect(refused.invalidFields.contains(field), "\(body): \(refused.invalidFields)")
            }
            try await expectEqual(home.store.escalationSettings(), EscalationSettings(missedDoseAwayAfterMinutes: 30, contactsAfterMinutes: 5))
        }
    }

    @Test func adminsKeepTheEmergencyContactsAndBadOnesNameTheirPlace() async throws {
        try await CareHousehold.with { home in
            let contacts = "/api/v1/household/emergency-contacts"
            try await expectEqual(home.call(.get, contacts).list, [])
            let put = try await home.call(.put, contacts, body: #"[{"name": "Pani Krysia (sąsiadka)", "phone": "+48 600 100 500"}]"#)
            expectEqual(put.status, .ok)
            try await expectEqual(home.call(.get, contacts).list, [["name": "Pani Krysia (sąsiadka)", "phone": "+48 600 100 500"]])
            // Caregivers and seniors neither read nor change them.
            for token in [home.caregiver, home.senior] {
                try await expectEqual(home.call(.get, contacts, as: token).status, .forbidden)
                try await expectEqual(home.call(.put, contacts, as: token, body: "[]").status, .forbidden)
            }
            let bad: [(String, String)] = [
                (#"[{"name": "Jan", "phone": "not a number"}]"#, "[0].phone"),
                (#"[{"name": "Jan", "phone": "+48600"}, {"name": "", "phone": "+48601"}]"#, "[1].name"),
                (#"[{"name": "Jan", "phone": "+48600", "email": "j@x"}]"#, "[0].email"),
                (#"{"name": "Jan"}"#, "emergencyContacts"),
            ]
            for (body, field) in bad {
                let refused = try await home.call(.put, contacts, body: body)
                expectEqual(refused.status, .unprocessableContent, "\(body)")
                #expect(refused.invalidFields.contains(field), "\(body): \(refused.invalidFields)")
            }
            let six = "[" + (1...6).map { #"{"name": "N\#($0)", "phone": "+4860010050\#($0)"}"# }.joined(separator: ",") + "]"
            try await expectEqual(home.call(.put, contacts, body: six).status, .unprocessableContent)
            try await expectEqual(home.call(.get, contacts).list.count, 1, "nothing changed")
            // The log says how many, never who.
            let log = try await home.store.changes(after: 0, limit: 10_000)
            #expect(!log.contains { "\($0.payload)".contains("600 100 500") })
        }
    }
}
