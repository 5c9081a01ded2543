import Foundation
import HearthCore
import HearthStore
import HearthTestSupport

/// Time that tests set by hand: the store's clock and the reminder service's.
final class SimulatedTime: Sendable {
    private let current: Locked<Date>

    init(_ start: Date) { current = Locked(start) }

    var now: Date { current.withLock { $0 } }

    func set(_ date: Date) { current.withLock { $0 = date } }
    func advance(by seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
}

/// A household on a real SQLite file (on tmpfs when there is one, so fsync
/// costs nothing and a simulated month runs in seconds): a senior, a linked
/// caregiver, the household in `timeZone`, and time that tests move.
final class CareHome {
    /// Removed when the home is (after the store is closed, in deinit).
    private let temporary: TemporaryDirectory
    let directory: URL
    let time: SimulatedTime
    private(set) var store: HearthStore
    let senior: Person
    let caregiver: Person
    let zone: TimeZone
    /// The senior as the permission policy knows her, answering her own doses.
    var seniorActor: PermissionPolicy.Actor { PermissionPolicy.Actor(personId: senior.id, role: .senior) }
    var caregiverActor: PermissionPolicy.Actor { PermissionPolicy.Actor(personId: caregiver.id, role: .caregiver, caresFor: [senior.id]) }

    init(start: Date, timeZone: String = "Europe/Warsaw") async throws {
        temporary = try TemporaryDirectory(inMemory: true)
        directory = temporary.url
        time = SimulatedTime(start)
        let time = self.time
        store = try HearthStore(directory: directory, now: { time.now })
        try await store.ensureHousehold(name: "Home", timeZone: timeZone)
        senior = try await store.addPerson(name: "Babcia", role: .senior, as: .hubTerminal, by: "test")
        caregiver = try await store.addPerson(name: "Ola", role: .caregiver, as: .hubTerminal, by: "test")
        try await store.link(caregiver: caregiver.id, senior: senior.id, as: .hubTerminal, by: "test")
        zone = TimeZone(identifier: timeZone)!
    }

    deinit {
        try? store.close()
    }

    /// Closes the database and opens it again, as a restart (or a power cut
    /// after the last commit) does.
    func restart() throws {
        try store.close()
        let time = self.time
        store = try HearthStore(directory: directory, now: { time.now })
    }

    /// A medication for `person` (the senior unless said) with one schedule.
    @discardableResult
    func medication(_ name: String, _ pattern: DoseSchedule.Pattern, amount: Double = 1, for person: Person? = nil,
                     startDate: LocalDate? = nil, stock: Double? = nil) async throws -> (Medication, DoseSchedule) {
        let owner = person ?? senior
        let medication = try await store.addMedication(
            Medication(personId: owner.id, name: name, stock: stock, createdAt: time.now, updatedAt: time.now),
            as: PermissionPolicy.Actor(personId: caregiver.id, role: .caregiver, caresFor: [owner.id]), by: "test")
        let schedule = try await store.addSchedule(
            DoseSchedule(medicationId: medication.id, pattern: pattern, amount: amount,
                         startDate: startDate ?? LocalDate(time.now, in: zone)),
            as: PermissionPolicy.Actor(personId: caregiver.id, role: .caregiver, caresFor: [owner.id]), by: "test")
        return (medication, schedule)
    }

    func date(_ text: String) throws -> LocalDate { try LocalDate(text) }
    func time(_ text: String) throws -> LocalTime { try LocalTime(text) }

    /// The instant of a wall-clock time in the household.
    func at(_ date: String, _ time: String) throws -> Date {
        WallClock.instant(try LocalDate(date), try LocalTime(time), in: zone)
    }

    /// Every alert ever raised, oldest first.
    func alerts() async throws -> [CareAlert] {
        try await store.alerts(about: [senior.id], includeHubAlerts: true, openOnly: false, limit: 100_000).reversed()
    }
}

