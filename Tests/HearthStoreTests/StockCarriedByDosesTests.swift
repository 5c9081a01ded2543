import Foundation
import GRDB
import HearthCore
@testable import HearthStore
import HearthTestSupport
import Testing

/// v25: a medication's stock is carried by its newest taken dose, so a dose
/// writes no page of its medication's (issue 41). What a household reads
/// must be exactly what rewriting the medication at every dose gave: the
/// stock moved one dose at a time, kept within 0 and the maximum, whatever
/// order doses are recorded, put right or taken back in.
@Suite struct StockCarriedByDosesTests {
    struct Home {
        let store: HearthStore
        let home: NotesTests.Household
        let planned: Medication
        let asNeeded: Medication
        var caregiver: PermissionPolicy.Actor { home.actor(home.caregiver) }
        var zone: TimeZone { TimeZone(identifier: "Europe/Warsaw")! }

        /// The stock as the hub reads it, and as it is stored on the medication's own row.
        func stock(_ medication: Medication) async throws -> (read: Double?, row: Double?) {
            let read = try await store.medication(id: medication.id)?.stock
            let row = try await store.read { db in
                try Double.fetchOne(db, sql: "SELECT stock FROM medications WHERE id = ?", arguments: [medication.id.text])
            }
            return (read, row)
        }
    }

    /// Babcia Zosia's two medicines: Metformina three times a day (10 in
    /// stock, packages of 5) and Paracetamol as needed, without limits (4 in
    /// stock, packages of 10).
    static func home(_ directory: borrowing TemporaryDirectory) async throws -> Home {
        let home = try await NotesTests.household(directory)
        let store = home.store
        let caregiver = home.actor(home.caregiver)
        let now = home.clock.now
        let today = LocalDate(now, in: TimeZone(identifier: "Europe/Warsaw")!)
        let planned = try await store.addMedication(
            Medication(personId: home.senior.id, name: "Metformina", stock: 10, packageSize: 5, createdAt: now, updatedAt: now),
            schedules: [DoseSchedule(medicationId: UUID.random(), pattern: .everyNDays(interval: 1, times: [
                try LocalTime("08:00"), try LocalTime("14:00"), try LocalTime("20:00"),
            ]), amount: 1, startDate: today.adding(days: -3))],
            as: caregiver, by: "t")
        let asNeeded = try await store.addMedication(
            Medication(personId: home.senior.id, name: "Paracetamol", stock: 4, packageSize: 10, createdAt: now, updatedAt: now),
            schedules: [DoseSchedule(medicationId: UUID.random(), pattern: .asNeeded(minimumIntervalMinutes: nil, dailyMaximum: nil),
                                     amount: 2, startDate: today.adding(days: -3))],
            as: caregiver, by: "t")
        return Home(store: store, home: home, planned: planned, asNeeded: asNeeded)
    }

    @Test func anOrdinaryDoseLeavesItsMedicationsRowAloneAndALateOneWritesIt() async throws {
        let directory = try TemporaryDirectory()
        let home = try await Self.home(directory)
        defer { try? home.store.close() }
        let store = home.store
        let rowBefore = try await store.read { db in
            try String.fetchOne(db, sql: "SELECT stock || ' ' || stockSeq || ' ' || updatedAt FROM medications WHERE id = ?",
                                arguments: [home.asNeeded.id.text])
        }

        // She takes Paracetamol now, then a minute later again
        _ = try await store.takeAsNeeded(medicationId: home.asNeeded.id, takenAt: nil, override: false, reason: nil, as: home.caregiver, by: "t")
        home.home.clock.advance(60)
        let second = try await store.takeAsNeeded(medicationId: home.asNeeded.id, takenAt: nil, override: false, reason: nil,
                                                  as: home.caregiver, by: "t")

        // Then the stock reads 0 (4 less two doses of 2), moved when the second was taken, and its row was not written
        let read = try #require(try await store.medication(id: home.asNeeded.id))
        expectEqual(read.stock, 0)
        expectEqual(read.updatedAt, second.createdAt)
        #expect(try await store.read { db in
            try String.fetchOne(db, sql: "SELECT stock || ' ' || stockSeq || ' ' || updatedAt FROM medications WHERE id = ?",
                                arguments: [home.asNeeded.id.text])
        } == rowBefore)
        // And devices heard the stock through the medication's change, as before
        let heard = try await store.changes(after: 0, limit: 1000).last { $0.entity == .medication && $0.entityId == home.asNeeded.id.text }
        expectEqual(heard?.payload.field("stock"), .number(0))

        // When a caregiver records one she gave an hour ago (not the newest), after a refill of 10
        _ = try await store.refill(medicationId: home.asNeeded.id, packages: 1, as: home.caregiver, by: "t")
        _ = try await store.takeAsNeeded(medicationId: home.asNeeded.id, takenAt: home.home.clock.now.addingTimeInterval(-3600),
                                         override: false, reason: nil, as: home.caregiver, by: "t")
        // Then the stock is written on the medication's row, where no newer dose hides it
        #expect(try await home.stock(home.asNeeded) == (8, 8))
        // And the next ordinary dose is carried by the dose again
        home.home.clock.advance(60)
        _ = try await store.takeAsNeeded(medicationId: home.asNeeded.id, takenAt: nil, override: false, reason: nil, as: home.caregiver, by: "t")
        #expect(try await home.stock(home.asNeeded) == (6, 8))
    }

    /// Doses taken, skipped, recorded late, put right in time and status,
    /// taken back; refills and edits of the stock; two a slot by "Take all":
    /// after each step the stock reads what moving it one step at a time
    /// within 0 and the maximum gives.
    @Test func theStockReadsWhatMovingItOneStepAtATimeGives() async throws {
        let directory = try TemporaryDirectory()
        let home = try await Self.home(directory)
        defer { try? home.store.close() }
        let store = home.store
        let maximum = Medication.maximumStock
        var expected: [UUID: Double] = [home.planned.id: 10, home.asNeeded.id: 4]
        func move(_ id: UUID, by amount: Double) { expected[id] = min(maximum, max(0, expected[id]! + amount)) }
        var random = SeededRandom(seed: 41)
        var taken: [Dose] = []
        var done: [String: Int] = [:]

        for step in 0..<400 {
            home.home.clock.advance(Double(random.next(below: 90)) * 60)
            let now = home.home.clock.now
            let medication = random.next(below: 2) == 0 ? home.planned : home.asNeeded
            var what = ""
            switch random.next(below: 9) {
            case 0, 1:
                // A planned dose of today or yesterday answered, taken now or earlier, or skipped
                let day = LocalDate(now, in: home.zone).adding(days: -random.next(below: 2))
                let open = try await store.dayPlan(personId: home.home.senior.id, date: day).planned
                    .filter { $0.dose.map { !$0.status.isAnswered } ?? true && $0.planned.due <= now.addingTimeInterval(11 * 3600) }
                guard let pick = open.randomElement(using: &random) else { continue }
                let skip = random.next(below: 4) == 0
                let when = random.next(below: 2) == 0 ? nil : min(now, pick.planned.due.addingTimeInterval(Double(random.next(below: 120)) * 60))
                let (dose, recorded) = try await store.answerDose(key: pick.planned.key, skip ? .skipped(reason: nil) : .taken(at: when),
                                                                   as: home.caregiver, by: "t")
                #expect(recorded)
                if !skip { move(home.planned.id, by: -dose.amount); taken.append(dose) }
                what = skip ? "skipped \(pick.planned.key)" : "took \(pick.planned.key) at \(String(describing: when))"
            case 2, 3:
                // An as-needed dose now, or recorded up to three hours late
                let late = random.next(below: 3) == 0 ? now.addingTimeInterval(-Double(random.next(below: 180)) * 60) : nil
                let dose = try await store.takeAsNeeded(medicationId: home.asNeeded.id, takenAt: late, override: false, reason: nil,
                                                        as: home.caregiver, by: "t")
                move(home.asNeeded.id, by: -dose.amount)
                taken.append(dose)
                what = "as needed at \(String(describing: late))"
            case 4:
                // A taken dose put right: skipped after all, or taken at another time
                guard let pick = taken.randomElement(using: &random), let stored = try await store.dose(id: pick.id) else { continue }
                if stored.status == .taken, random.next(below: 2) == 0 {
                    _ = try await store.correctDose(id: stored.id, takenAt: nil, status: .skipped, reason: nil, as: home.caregiver, by: "t")
                    move(stored.medicationId, by: stored.amount)
                    what = "put right to skipped"
                } else {
                    let when = now.addingTimeInterval(-Double(random.next(below: 600)) * 60)
                    _ = try await store.correctDose(id: stored.id, takenAt: when, status: .taken, reason: nil, as: home.caregiver, by: "t")
                    if stored.status != .taken { move(stored.medicationId, by: -stored.amount) }
                    what = "put right to taken at \(when)"
                }
            case 5:
                // A planned dose's answer taken back
                guard let pick = taken.filter({ $0.key != nil }).randomElement(using: &random),
                      let stored = try await store.dose(id: pick.id), stored.status.isAnswered else { continue }
                _ = try await store.withdrawDoseAnswer(id: stored.id, as: home.caregiver, by: "t")
                if stored.status == .taken { move(stored.medicationId, by: stored.amount) }
                taken.removeAll { $0.id == stored.id }
                what = "took back \(stored.key ?? "")"
            case 6:
                _ = try await store.refill(medicationId: medication.id, packages: 1, as: home.caregiver, by: "t")
                move(medication.id, by: medication.packageSize!)
                what = "refilled \(medication.name)"
            case 7:
                // The stock counted by hand, now and then close to the maximum
                let counted = random.next(below: 5) == 0 ? maximum - 3 : Double(random.next(below: 6))
                _ = try await store.updateMedication(id: medication.id, as: home.caregiver, .edit, by: "t") { $0.stock = counted }
                expected[medication.id] = counted
                what = "counted \(medication.name): \(counted)"
            default:
                // "Take all" of a slot
                let day = LocalDate(now, in: home.zone)
                let plan = try await store.dayPlan(personId: home.home.senior.id, date: day).planned
                guard let slot = plan.first(where: { !($0.dose?.status.isAnswered ?? false) && $0.planned.due <= now })?.planned.slot else { continue }
                let doses = try await store.takeAll(personId: home.home.senior.id, date: day, slot: slot, as: home.caregiver, by: "t")
                for dose in doses { move(dose.medicationId, by: -dose.amount); taken.append(dose) }
                what = "took all of \(slot) (\(doses.count))"
            }
            done[String(what.prefix(while: { $0 != " " })), default: 0] += 1
            for id in [home.planned.id, home.asNeeded.id] {
                let read = try await store.medication(id: id)?.stock
                expectEqual(read, expected[id], "step \(step), \(what): \(id == home.planned.id ? "Metformina" : "Paracetamol")")
            }
        }
        for kind in ["took", "skipped", "as", "put", "refilled", "counted"] { #expect(done[kind, default: 0] >= 5, "\(kind): \(done)") }
        #expect(done["took", default: 0] + done["took back", default: 0] > 0, "\(done)")
        // And what was read holds when the hub opens the file again
        try store.close()
        let again = try PairingTests.store(directory, clock: home.home.clock)
        defer { try? again.close() }
        for id in [home.planned.id, home.asNeeded.id] { try await expectEqual(again.medication(id: id)?.stock, expected[id]) }
    }

    /// A hub from before v25 reads each medication's stock from its row, and
    /// its next dose counts from there.
    @Test func aHubFromBeforeV25KeepsItsStock() async throws {
        let directory = try TemporaryDirectory()
        let senior = "00000000-0000-4000-8000-0000000000aa", medication = "00000000-0000-4000-8000-0000000000bb"
        do {
            let queue = try DatabaseQueue(path: directory.url.appendingPathComponent(HearthStore.fileName).path)
            try HearthStore.migrator.migrate(queue, upTo: "v24 the change log without its entity index")
            try await queue.write { db in
                try db.execute(sql: "INSERT INTO people (id, name, role, createdAt) VALUES (?, 'Zosia', 'senior', 0)", arguments: [senior])
                try db.execute(sql: """
                    INSERT INTO medications (id, personId, name, strength, unit, form, instructions, appearance, stock, active, revision, createdAt, updatedAt)
                    VALUES (?, ?, 'Paracetamol', '500 mg', 'tablet', 'tablet', '', '', 17, 1, 1, 0, 500)
                    """, arguments: [medication, senior])
                try db.execute(sql: """
                    INSERT INTO doses (id, key, medicationId, personId, dueAt, amount, status, takenAt, createdAt, updatedAt)
                    VALUES ('00000000-0000-4000-8000-000000000002', NULL, ?, ?, NULL, 2, 'taken', 2000, 0, 900)
                    """, arguments: [medication, senior])
            }
        }
        let clock = PairingTests.TestClock()
        let store = try PairingTests.store(directory, clock: clock)
        defer { try? store.close() }
        let id = try #require(UUID(text: medication))
        let read = try #require(try await store.medication(id: id))
        expectEqual(read.stock, 17)
        expectEqual(read.updatedAt, Date(millisecondsSince1970: 500))
        try await store.ensureHousehold(name: "Dom", timeZone: "Europe/Warsaw")
        let ania = try await store.addPerson(name: "Ania", role: .caregiver, as: .hubTerminal, by: "test")
        let caregiver = PermissionPolicy.Actor(personId: ania.id, role: .caregiver, caresFor: [try #require(UUID(text: senior))])
        _ = try await store.addSchedule(DoseSchedule(medicationId: id, pattern: .asNeeded(minimumIntervalMinutes: nil, dailyMaximum: nil),
                                                     amount: 1, startDate: LocalDate(clock.now, in: TimeZone(identifier: "Europe/Warsaw")!)),
                                        as: caregiver, by: "t")
        _ = try await store.takeAsNeeded(medicationId: id, takenAt: nil, override: false, reason: nil, as: caregiver, by: "t")
        try await expectEqual(store.medication(id: id)?.stock, 16)
    }
}

extension SeededRandom {
    /// A number from 0 up to, not including, `bound`.
    mutating func next(below bound: Int) -> Int { Int(next(upperBound: UInt64(bound))) }
}
