import Foundation
import HearthCore
@testable import HearthReminders
import Testing

/// The reminder service re-plans for what can move a dose, not for the
/// stock count that every dose taken updates.
@Suite struct ReplanningChangesTests {
    func change(_ entity: ChangeEntity, id: String = "m1", op: Change.Operation = .update, _ payload: JSONValue) -> Change {
        Change(seq: 1, entity: entity, entityId: id, op: op, payload: payload, origin: "test", time: Date())
    }

    @Test func aMedicationReplansWhenItStartsStopsOrMovesButNotWhenItsStockMoves() {
        var relevance = ReplanningChanges()
        let replans1 = relevance.replans(change(.medication, op: .create, ["active": .bool(true), "personId": "p1", "stock": .number(30)]))
        #expect(replans1)
        let replans2 = relevance.replans(change(.medication, ["active": .bool(true), "personId": "p1", "stock": .number(29)]))
        #expect(!replans2)
        let replans3 = relevance.replans(change(.medication, ["active": .bool(false), "personId": "p1", "stock": .number(29)]))
        #expect(replans3)
        let replans4 = relevance.replans(change(.medication, ["active": .bool(false), "personId": "p2", "stock": .number(29)]))
        #expect(replans4)
        let replans5 = relevance.replans(change(.medication, id: "m2", ["active": .bool(true), "personId": "p1"]))
        #expect(replans5)
    }

    @Test func aPlannedDoseReplansAndAnAsNeededOneDoesNot() {
        var relevance = ReplanningChanges()
        let replans6 = relevance.replans(change(.dose, id: "d1", op: .create, ["key": "s1/2026-03-29T08:00", "status": "snoozed"]))
        #expect(replans6)
        let replans7 = relevance.replans(change(.dose, id: "d2", op: .create, ["key": .null, "status": "taken"]))
        #expect(!replans7)
        let replans8 = relevance.replans(change(.schedule, id: "s1", ["amount": .number(1)]))
        #expect(replans8)
        let replans9 = relevance.replans(change(.household, id: "h", ["graceMinutes": .number(10)]))
        #expect(replans9)
        let replans10 = relevance.replans(change(.note, id: "n", ["title": "Zakupy"]))
        #expect(!replans10)
    }
}

