import Foundation
import HearthCore
import HearthTestSupport
import Testing

/// Every role against every action on every kind of resource, as one table.
@Suite struct PermissionPolicyTests {
    typealias Policy = PermissionPolicy

    static let senior = UUID()          // s1, looked after by `caregiver` and `admin`
    static let otherSenior = UUID()     // s2, looked after by nobody here
    static let caregiver = UUID()
    static let otherCaregiver = UUID()
    static let admin = UUID()
    static let otherAdmin = UUID()

    static let actors: [String: Policy.Actor] = [
        "senior": .init(personId: senior, role: .senior, lookedAfterBy: [caregiver, admin]),
        "other senior": .init(personId: otherSenior, role: .senior, managesOwnMedications: true),
        "linked caregiver": .init(personId: caregiver, role: .caregiver, caresFor: [senior]),
        "unlinked caregiver": .init(personId: otherCaregiver, role: .caregiver),
        "linked admin": .init(personId: admin, role: .admin, caresFor: [senior]),
        "unlinked admin": .init(personId: otherAdmin, role: .admin),
    ]

    static let resources: [String: Policy.Resource] = [
        "senior's private note": .note(owner: senior, visibility: .private),
        "senior's shared note": .note(owner: senior, visibility: .shared),
        "caregiver's private note": .note(owner: caregiver, visibility: .private),
        "caregiver's shared note": .note(owner: caregiver, visibility: .shared),
        "senior's circle note": .note(owner: senior, visibility: .circle),
        "senior's read-only circle note": .note(owner: senior, visibility: .circle, readOnly: true),
        "senior's read-only shared note": .note(owner: senior, visibility: .shared, readOnly: true),
        "caregiver's circle note": .note(owner: caregiver, visibility: .circle),
        "caregiver's read-only circle note": .note(owner: caregiver, visibility: .circle, readOnly: true),
        // Since v17 a caregiver's circle note names its senior: her and everyone linked to her.
        "caregiver's note in the senior's circle": .note(owner: caregiver, visibility: .circle, circleOf: senior),
        "caregiver's read-only note in the senior's circle": .note(owner: caregiver, visibility: .circle, readOnly: true, circleOf: senior),
        // Shared with the senior's circle before its owner was unlinked from her.
        "unlinked caregiver's note in the senior's circle": .note(owner: otherCaregiver, visibility: .circle, circleOf: senior),
        "caregiver's note in the other senior's circle": .note(owner: caregiver, visibility: .circle, circleOf: otherSenior),
        "senior's care": .care(of: senior),
        "other senior's care": .care(of: otherSenior),
        "senior's medications": .medications(of: senior),
        // The other senior manages her own (an admin said so).
        "other senior's medications": .medications(of: otherSenior),
        "senior's dose she recorded": .doseRecord(of: senior, recordedBy: senior),
        "senior's dose her caregiver recorded": .doseRecord(of: senior, recordedBy: caregiver),
        "senior as a person": .person(senior),
        "caregiver as a person": .person(caregiver),
        "senior's device": .device(owner: senior),
        "caregiver's device": .device(owner: caregiver),
        "household settings": .household,
        "pairing for the linked caregiver": .pairing(person: caregiver, role: .caregiver, looksAfter: [senior]),
        "pairing for the linked admin": .pairing(person: admin, role: .admin, looksAfter: [senior]),
        "pairing for someone new": .pairing(person: nil, role: .caregiver, looksAfter: []),
        // Someone new the senior invites: they will look after her once paired.
        "pairing for someone new to look after the senior": .pairing(person: nil, role: .caregiver, looksAfter: [senior]),
        "pairing for a new admin to look after the senior": .pairing(person: nil, role: .admin, looksAfter: [senior]),
        // Set since the hub started, near its last record.
        "hub clock": .hubClock(setSinceStart: true, withinLimit: true),
        // The first setting since the hub started (a Pi has no real-time clock).
        "hub clock, first since start": .hubClock(setSinceStart: false, withinLimit: true),
        "hub clock, far": .hubClock(setSinceStart: false, withinLimit: false),
        "senior's screen": .screen(of: senior),
        "caregiver's screen": .screen(of: caregiver),
        // How she is told away from home: hers and her admins'.
        "caregiver's away choice": .away(of: caregiver),
        "dose reminders": .doseReminders,
    ]

    /// view, create, edit, delete: y = allowed, n = denied.
    static let table: [String: [String: String]] = [
        "senior": [
            "pairing for someone new to look after the senior": "nynn", "pairing for a new admin to look after the senior": "nnnn",
            "other senior's medications": "nnnn",
            "senior's circle note": "yyyy", "senior's read-only circle note": "yyyy", "senior's read-only shared note": "yyyy",
            "caregiver's circle note": "yyyn", "caregiver's read-only circle note": "ynnn",
            "caregiver's note in the senior's circle": "yyyn", "caregiver's read-only note in the senior's circle": "ynnn",
            "unlinked caregiver's note in the senior's circle": "yyyn", "caregiver's note in the other senior's circle": "nnnn",
            "senior's private note": "yyyy", "senior's shared note": "yyyy",
            "caregiver's private note": "nnnn", "caregiver's shared note": "yyyn",
            "senior's care": "yyyn", "other senior's care": "nnnn", "senior's medications": "ynnn",
            "senior's dose she recorded": "yyyy", "senior's dose her caregiver recorded": "ynnn",
            "senior as a person": "ynyn", "caregiver as a person": "ynnn",
            "senior's device": "yyyy", "caregiver's device": "nnnn", "household settings": "ynnn",
            // Never for anyone who exists: her caregiver may look after others too (issue 38 #2).
            "pairing for the linked caregiver": "nnnn", "pairing for the linked admin": "nnnn",
            "pairing for someone new": "nnnn", "hub clock": "nnnn",
            "hub clock, first since start": "nnnn", "hub clock, far": "nnnn",
            "senior's screen": "yyyy", "caregiver's screen": "nnnn", "caregiver's away choice": "nnnn", "dose reminders": "nnnn",
        ],
        "other senior": [
            "pairing for someone new to look after the senior": "nnnn", "pairing for a new admin to look after the senior": "nnnn",
            "other senior's medications": "yyyy",
            "senior's circle note": "nnnn", "senior's read-only circle note": "nnnn", "senior's read-only shared note": "ynnn",
            "caregiver's circle note": "nnnn", "caregiver's read-only circle note": "nnnn",
            "caregiver's note in the senior's circle": "nnnn", "caregiver's read-only note in the senior's circle": "nnnn",
            "unlinked caregiver's note in the senior's circle": "nnnn", "caregiver's note in the other senior's circle": "yyyn",
            "senior's private note": "nnnn", "senior's shared note": "yyyn",
            "caregiver's private note": "nnnn", "caregiver's shared note": "yyyn",
            "senior's care": "nnnn", "other senior's care": "yyyn", "senior's medications": "nnnn",
            "senior's dose she recorded": "nnnn", "senior's dose her caregiver recorded": "nnnn",
            "senior as a person": "ynnn", "caregiver as a person": "ynnn",
            "senior's device": "nnnn", "caregiver's device": "nnnn", "household settings": "ynnn",
            "pairing for the linked caregiver": "nnnn", "pairing for the linked admin": "nnnn",
            "pairing for someone new": "nnnn", "hub clock": "nnnn",
            "hub clock, first since start": "nnnn", "hub clock, far": "nnnn",
            "senior's screen": "nnnn", "caregiver's screen": "nnnn", "caregiver's away choice": "nnnn", "dose reminders": "nnnn",
        ],
        "linked caregiver": [
            "pairing for someone new to look after the senior": "nnnn", "pairing for a new admin to look after the senior": "nnnn",
            "other senior's medications": "nnnn",
            "senior's circle note": "yyyy", "senior's read-only circle note": "ynnn", "senior's read-only shared note": "ynnn",
            "caregiver's circle note": "yyyy", "caregiver's read-only circle note": "yyyy",
            "caregiver's note in the senior's circle": "yyyy", "caregiver's read-only note in the senior's circle": "yyyy",
            "unlinked caregiver's note in the senior's circle": "yyyn", "caregiver's note in the other senior's circle": "yyyy",
            "senior's private note": "nnnn", "senior's shared note": "yyyy",
            "caregiver's private note": "yyyy", "caregiver's shared note": "yyyy",
            "senior's care": "yyyy", "other senior's care": "nnnn", "senior's medications": "yyyy",
            "senior's dose she recorded": "yyyy", "senior's dose her caregiver recorded": "yyyy",
            "senior as a person": "ynnn", "caregiver as a person": "ynyn",
            "senior's device": "nnnn", "caregiver's device": "yyyy", "household settings": "ynnn",
            "pairing for the linked caregiver": "nnnn", "pairing for the linked admin": "nnnn",
            "pairing for someone new": "nnnn", "hub clock": "nnnn",
            "hub clock, first since start": "nnyn", "hub clock, far": "nnnn",
            "senior's screen": "yyyy", "caregiver's screen": "yyyy", "caregiver's away choice": "yyyy", "dose reminders": "nnnn",
        ],
        "unlinked caregiver": [
            "pairing for someone new to look after the senior": "nnnn", "pairing for a new admin to look after the senior": "nnnn",
            "other senior's medications": "nnnn",
            "senior's circle note": "nnnn", "senior's read-only circle note": "nnnn", "senior's read-only shared note": "ynnn",
            "caregiver's circle note": "nnnn", "caregiver's read-only circle note": "nnnn",
            "caregiver's note in the senior's circle": "nnnn", "caregiver's read-only note in the senior's circle": "nnnn",
            "unlinked caregiver's note in the senior's circle": "yyyy", "caregiver's note in the other senior's circle": "nnnn",
            "senior's private note": "nnnn", "senior's shared note": "yyyn",
            "caregiver's private note": "nnnn", "caregiver's shared note": "yyyn",
            "senior's care": "nnnn", "other senior's care": "nnnn", "senior's medications": "nnnn",
            "senior's dose she recorded": "nnnn", "senior's dose her caregiver recorded": "nnnn",
            "senior as a person": "ynnn", "caregiver as a person": "ynnn",
            "senior's device": "nnnn", "caregiver's device": "nnnn", "household settings": "ynnn",
            "pairing for the linked caregiver": "nnnn", "pairing for the linked admin": "nnnn",
            "pairing for someone new": "nnnn", "hub clock": "nnnn",
            "hub clock, first since start": "nnnn", "hub clock, far": "nnnn",
            "senior's screen": "nnnn", "caregiver's screen": "nnnn", "caregiver's away choice": "nnnn", "dose reminders": "nnnn",
        ],
        "linked admin": [
            "pairing for someone new to look after the senior": "yyyy", "pairing for a new admin to look after the senior": "yyyy",
            "other senior's medications": "nnnn",
            "senior's circle note": "yyyy", "senior's read-only circle note": "ynnn", "senior's read-only shared note": "ynnn",
            "caregiver's circle note": "nnnn", "caregiver's read-only circle note": "nnnn",
            "caregiver's note in the senior's circle": "yyyn", "caregiver's read-only note in the senior's circle": "ynnn",
            "unlinked caregiver's note in the senior's circle": "yyyn", "caregiver's note in the other senior's circle": "nnnn",
            "senior's private note": "nnnn", "senior's shared note": "yyyy",
            "caregiver's private note": "nnnn", "caregiver's shared note": "yyyy",
            "senior's care": "yyyy", "other senior's care": "nnnn", "senior's medications": "yyyy",
            "senior's dose she recorded": "yyyy", "senior's dose her caregiver recorded": "yyyy",
            "senior as a person": "yyyy", "caregiver as a person": "yyyy",
            "senior's device": "yyyy", "caregiver's device": "yyyy", "household settings": "yyyy",
            "pairing for the linked caregiver": "yyyy", "pairing for the linked admin": "yyyy",
            "pairing for someone new": "yyyy", "hub clock": "yyyy",
            "hub clock, first since start": "yyyy", "hub clock, far": "yyyy",
            "senior's screen": "yyyy", "caregiver's screen": "yyyy", "caregiver's away choice": "yyyy", "dose reminders": "nnnn",
        ],
        "unlinked admin": [
            "pairing for someone new to look after the senior": "yyyy", "pairing for a new admin to look after the senior": "yyyy",
            "other senior's medications": "nnnn",
            "senior's circle note": "nnnn", "senior's read-only circle note": "nnnn", "senior's read-only shared note": "ynnn",
            "caregiver's circle note": "nnnn", "caregiver's read-only circle note": "nnnn",
            "caregiver's note in the senior's circle": "nnnn", "caregiver's read-only note in the senior's circle": "nnnn",
            "unlinked caregiver's note in the senior's circle": "nnnn", "caregiver's note in the other senior's circle": "nnnn",
            "senior's private note": "nnnn", "senior's shared note": "yyyy",
            "caregiver's private note": "nnnn", "caregiver's shared note": "yyyy",
            "senior's care": "nnnn", "other senior's care": "nnnn", "senior's medications": "nnnn",
            "senior's dose she recorded": "nnnn", "senior's dose her caregiver recorded": "nnnn",
            "senior as a person": "yyyy", "caregiver as a person": "yyyy",
            "senior's device": "yyyy", "caregiver's device": "yyyy", "household settings": "yyyy",
            "pairing for the linked caregiver": "yyyy", "pairing for the linked admin": "yyyy",
            "pairing for someone new": "yyyy", "hub clock": "yyyy",
            "hub clock, first since start": "yyyy", "hub clock, far": "yyyy",
            "senior's screen": "yyyy", "caregiver's screen": "yyyy", "caregiver's away choice": "yyyy", "dose reminders": "nnnn",
        ],
    ]

    @Test func theTableCoversEveryRoleActionAndResource() {
        expectEqual(Set(Self.actors.values.map(\.role)), Set(Person.Role.allCases))
        expectEqual(Set(Self.table.keys), Set(Self.actors.keys))
        for row in Self.table.values {
            expectEqual(Set(row.keys), Set(Self.resources.keys))
            #expect(row.values.allSatisfy { $0.count == Policy.Action.allCases.count })
        }
    }

    @Test(arguments: Array(table.keys).sorted())
    func decisionsMatchTheTable(origin: String) throws {
        let actor = try #require(Self.actors[origin])
        let row = try #require(Self.table[origin])
        for (resourceName, expected) in row {
            let resource = try #require(Self.resources[resourceName])
            for (action, mark) in zip(Policy.Action.allCases, expected) {
                let decision = Policy.decide(actor, action, resource)
                expectEqual(decision, (mark == "y" ? .allow : .deny), "\(origin) \(action) \(resourceName)")
            }
        }
    }

    @Test func aRefusalSaysNotFoundForWhatCannotBeSeenAndForbiddenForWhatCannotBeDone() throws {
        let senior = try #require(Self.actors["senior"])
        #expect(throws: HearthError.forbidden("A dose someone else recorded is put right by a caregiver")) {
            try Policy.require(senior, .edit, .doseRecord(of: Self.senior, recordedBy: Self.caregiver), what: "That dose")
        }
        let stranger = try #require(Self.actors["unlinked caregiver"])
        #expect(throws: HearthError.notFound(what: "That dose")) {
            try Policy.require(stranger, .edit, .doseRecord(of: Self.senior, recordedBy: Self.caregiver), what: "That dose")
        }
        try Policy.require(senior, .edit, .doseRecord(of: Self.senior, recordedBy: Self.senior), what: "That dose")
    }

    /// The hub's own work, each its own identity with its own rows: the
    /// console an admin's say; a Notek client the shared notes alone; the
    /// reminder pass and a restore what they are for, and nothing else.
    @Test func theHubsOwnWorkReachesOnlyWhatItIsFor() throws {
        expectEqual(Set([Policy.Actor.hubTerminal, .notekBridge, .reminderService, .restore].compactMap(\.work)), Set(Policy.HubWork.allCases))
        expectEqual(Set([Policy.Actor.hubTerminal, .notekBridge, .reminderService, .restore].map(\.personId)).count, 4)
        let unlinkedAdmin = try #require(Self.actors["unlinked admin"])
        let notek: Set<String> = ["senior's shared note", "caregiver's shared note"]
        for (name, resource) in Self.resources {
            for action in Policy.Action.allCases {
                let said = "\(action) \(name)"
                expectEqual(Policy.decide(.hubTerminal, action, resource), Policy.decide(unlinkedAdmin, action, resource), "terminal \(said)")
                let bridge: Policy.Decision = notek.contains(name) ? .allow : (name == "senior's read-only shared note" && action == .view ? .allow : .deny)
                expectEqual(Policy.decide(.notekBridge, action, resource), bridge, "Notek \(said)")
                expectEqual(Policy.decide(.reminderService, action, resource), (name == "dose reminders" ? .allow : .deny), "reminders \(said)")
                let restore: Policy.Decision = name.hasSuffix("'s device") && (action == .view || action == .delete) ? .allow : .deny
                expectEqual(Policy.decide(.restore, action, resource), restore, "restore \(said)")
            }
        }
    }

    @Test func privateNotesAreNeverShownToCaregiversOrAdmins() {
        for role in [Person.Role.caregiver, .admin] {
            let actor = Policy.Actor(personId: UUID(), role: role, caresFor: [Self.senior])
            expectEqual(Policy.decide(actor, .view, .note(owner: Self.senior, visibility: .private)), .deny)
        }
    }
}
