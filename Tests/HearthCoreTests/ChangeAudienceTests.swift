import Foundation
import HearthCore
import HearthTestSupport
import Testing

/// Who hears of each kind of change, decided once from the change as the
/// store recorded it (`Change.audience`) and asked of the policy.
@Suite struct ChangeAudienceTests {
    static let senior = UUID(), caregiver = UUID(), admin = UUID(), stranger = UUID()
    static let babcia = PermissionPolicy.Actor(personId: senior, role: .senior, lookedAfterBy: [caregiver])
    static let ania = PermissionPolicy.Actor(personId: caregiver, role: .caregiver, caresFor: [senior])
    static let boss = PermissionPolicy.Actor(personId: admin, role: .admin)
    static let obcy = PermissionPolicy.Actor(personId: stranger, role: .caregiver)

    static func hearers(_ entity: ChangeEntity, _ payload: JSONValue) -> Set<UUID> {
        let change = Change(seq: 1, entity: entity, entityId: "x", op: .update, payload: payload, origin: "t", time: Date())
        return Set([babcia, ania, boss, obcy].filter { PermissionPolicy.mayHear($0, change.audience) }.map(\.personId))
    }

    @Test func careIsHeardByTheSeniorAndHerCaregiversOnly() {
        for entity in [ChangeEntity.dose, .alert] {
            expectEqual(Self.hearers(entity, ["personId": .of(Self.senior)]), [Self.senior, Self.caregiver], "\(entity)")
        }
        for entity in [ChangeEntity.medication, .schedule] {
            expectEqual(Self.hearers(entity, ["personId": .of(Self.senior)]), [Self.senior, Self.caregiver], "\(entity)")
            #expect(Self.hearers(entity, ["medicationId": .of(UUID())]).isEmpty, "without its senior, nobody: \(entity)")
        }
        // The hub's own alert (its clock) is for caregivers and admins.
        expectEqual(Self.hearers(.alert, ["personId": .null]), [Self.caregiver, Self.admin, Self.stranger])
        #expect(Self.hearers(.alert, ["kind": "sos"]).isEmpty)
    }

    @Test func aPrivateNoteIsHeardByItsOwnerAndAShareEndingByThoseWhoReadItShared() {
        expectEqual(Self.hearers(.note, ["ownerId": .of(Self.senior), "visibility": "private"]), [Self.senior])
        expectEqual(Self.hearers(.note, ["ownerId": .of(Self.senior), "visibility": "shared"]).count, 4)
        expectEqual(Self.hearers(.note, ["ownerId": .of(Self.senior), "visibility": "private", "wasShared": .bool(true)]).count, 4)
        #expect(Self.hearers(.note, ["ownerId": .of(Self.senior)]).isEmpty, "an entry without its visibility is heard by nobody")
    }

    @Test func aCircleNoteIsHeardByTheOwnersCircleAndAChangeOfSharingByThoseWhoSawItBefore() {
        expectEqual(Self.hearers(.note, ["ownerId": .of(Self.senior), "visibility": "circle"]), [Self.senior, Self.caregiver])
        #expect(Self.hearers(.note, ["ownerId": .of(Self.caregiver), "visibility": "circle"]) == [Self.senior, Self.caregiver],
                "a caregiver's circle is the seniors she looks after")
        // Household → circle: the admin and the stranger hear that it is gone (its words are decided when sent).
        expectEqual(Self.hearers(.note, ["ownerId": .of(Self.senior), "visibility": "circle", "wasVisibility": "shared"]).count, 4)
        #expect(Self.hearers(.note, ["ownerId": .of(Self.senior), "visibility": "private", "wasVisibility": "circle"])
                == [Self.senior, Self.caregiver])
        #expect(Self.hearers(.note, ["ownerId": .of(Self.senior), "visibility": "circle", "wasVisibility": "private"])
                == [Self.senior, Self.caregiver])
    }

    @Test func aCaregiversNoteInASeniorsCircleIsHeardByHerAndEveryoneWhoLooksAfterHer() {
        // Ela looks after Babcia too; Dziadek's caregiver Jan does not.
        let ela = PermissionPolicy.Actor(personId: UUID(), role: .caregiver, caresFor: [Self.senior])
        let jan = PermissionPolicy.Actor(personId: UUID(), role: .caregiver, caresFor: [UUID()])
        func hearers(_ payload: JSONValue) -> Set<UUID> {
            let change = Change(seq: 1, entity: .note, entityId: "x", op: .update, payload: payload, origin: "t", time: Date())
            return Set([Self.babcia, Self.ania, Self.boss, Self.obcy, ela, jan].filter { PermissionPolicy.mayHear($0, change.audience) }.map(\.personId))
        }
        let inBabciasCircle: JSONValue = ["ownerId": .of(Self.caregiver), "visibility": "circle", "circleOf": .of(Self.senior)]
        expectEqual(hearers(inBabciasCircle), [Self.senior, Self.caregiver, ela.personId])
        // Moved to another senior's circle: Babcia's circle hears that it is gone.
        let moved: JSONValue = ["ownerId": .of(Self.caregiver), "visibility": "circle", "circleOf": .of(UUID()),
                                "wasCircleOf": .of(Self.senior)]
        expectEqual(hearers(moved), [Self.senior, Self.caregiver, ela.personId])
        // Made private: the same.
        let hidden: JSONValue = ["ownerId": .of(Self.caregiver), "visibility": "private", "circleOf": .null,
                                 "wasVisibility": "circle", "wasCircleOf": .of(Self.senior)]
        expectEqual(hearers(hidden), [Self.senior, Self.caregiver, ela.personId])
    }

    @Test func devicesAndCodesAreHeardByTheirOwnersAndAdmins() {
        expectEqual(Self.hearers(.device, ["personId": .of(Self.caregiver)]), [Self.caregiver, Self.admin])
        expectEqual(Self.hearers(.device, [:]), [Self.admin])
        expectEqual(Self.hearers(.pairingCode, ["personId": .of(Self.caregiver)]), [Self.admin])
        expectEqual(Self.hearers(.household, ["name": "Dom"]).count, 4)
        expectEqual(Self.hearers(.person, ["name": "Ania"]).count, 4)
        expectEqual(Self.hearers(.careLink, [:]).count, 4)
    }
}
