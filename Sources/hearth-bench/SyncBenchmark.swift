import Foundation
import HearthEditing
import GRDB
import HearthCore
import HearthKit
import HearthServer
import HearthStore
import Logging
import ServiceLifecycle

/// Sync through HearthKit against a hub on loopback: the first sync of a
/// household with five years of history to an empty mirror, then one change
/// at a time.
///
/// The history: 10 medications and 2,000 notes (half shared, a few lines
/// each) made through the store's write path, and `dosesPerDay` answered
/// doses for every day of five years written straight into the change log
/// (the write path refuses to answer doses years old; the log entry is what
/// a sync reads, in the same shape the write path records).
enum SyncBenchmark {
    struct Row {
        var name: String
        var milliseconds: Double
        var bytes: Int
        var entities: Int
    }

    static func run(dosesPerDay: Int) async throws -> [Row] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-bench-sync-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try HearthStore(directory: directory)
        defer { try? store.close() }
        let (token, seniorId) = try await seed(store, in: directory, dosesPerDay: dosesPerDay)

        var logger = Logger(label: "bench")
        logger.logLevel = .error
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let app = HearthServer.application(store: store, settings: .init(host: "127.0.0.1", port: 0), logger: logger,
                                           noteSessions: NoteSessions(store: store, logger: logger)) { port in
            portContinuation.yield(port)
        }
        let group = ServiceGroup(services: [app], logger: logger)
        return try await withThrowingTaskGroup(of: [Row]?.self) { tasks in
            tasks.addTask {
                try await group.run()
                return nil
            }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else { throw CancellationError() }
            let rows = try await measure(port: port, token: token, store: store, seniorId: seniorId, directory: directory)
            await group.triggerGracefulShutdown()
            for try await _ in tasks {}
            return rows
        }
    }

    static func measure(port: Int, token: String, store: HearthStore, seniorId: UUID, directory: URL) async throws -> [Row] {
        let mirrorPath = directory.appendingPathComponent("mirror.sqlite").path
        let client = HearthClient(baseURL: URL(string: "http://127.0.0.1:\(port)/")!, token: token, store: try HearthMirror(path: mirrorPath))
        try await client.connect()
        var rows: [Row] = []
        let start = ContinuousClock.now
        let first = try await client.sync()
        rows.append(Row(name: "initial sync (\(first.rounds) rounds)", milliseconds: milliseconds(since: start),
                        bytes: first.bytesReceived, entities: first.pulled))

        // One change made on this device, pushed and confirmed.
        let medication = try require(try await client.mirror.medications().first)
        var pushes: [(Double, Int)] = []
        for round in 0..<50 {
            try await client.mirror.updateMedication(id: medication.id, MedicationChanges(instructions: "Round \(round)"))
            let started = ContinuousClock.now
            let report = try await client.sync()
            pushes.append((milliseconds(since: started), report.bytesReceived))
        }
        rows.append(median("one change pushed (median of 50)", pushes))

        // One change made elsewhere (a web edit), pulled.
        var pulls: [(Double, Int)] = []
        let senior = try require(try await store.actor(of: seniorId))
        for round in 0..<50 {
            _ = try await store.createNote(as: senior, title: "Web note \(round)", text: "Kupić chleb", visibility: .shared, pinned: false, by: "bench")
            let started = ContinuousClock.now
            let report = try await client.sync()
            pulls.append((milliseconds(since: started), report.bytesReceived))
        }
        rows.append(median("one change pulled (median of 50)", pulls))
        return rows
    }

    static func median(_ name: String, _ samples: [(Double, Int)]) -> Row {
        let sorted = samples.sorted { $0.0 < $1.0 }
        let middle = sorted[sorted.count / 2]
        return Row(name: name, milliseconds: middle.0, bytes: middle.1, entities: 1)
    }

    static func milliseconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
    }

    /// The household; returns the admin's token (a caregiver of the senior) and the senior's id.
    static func seed(_ store: HearthStore, in directory: URL, dosesPerDay: Int) async throws -> (String, UUID) {
        try await store.ensureHousehold(name: "Kowalski family", timeZone: "Europe/Warsaw")
        let admin = try await store.createPairing(for: .newPerson(name: "Admin", role: .admin), deviceName: nil, by: "bench", maker: .hubTerminal)
        let (_, token) = try await store.redeemPairing(.secret(admin.code.secret), deviceName: "Bench", userAgent: nil)
        let senior = try await store.createPairing(for: .newPerson(name: "Babcia", role: .senior), deviceName: nil, by: "bench", maker: .hubTerminal)
        _ = try await store.redeemPairing(.secret(senior.code.secret), deviceName: "Tablet", userAgent: nil)
        let seniorId = try require(try await store.person(named: "Babcia")?.id)
        let adminId = try require(try await store.person(named: "Admin")?.id)
        try await store.link(caregiver: adminId, senior: seniorId, as: .hubTerminal, by: "bench")
        let adder = try require(try await store.actor(of: adminId))
        let seniorMaker = try require(try await store.actor(of: seniorId))

        let now = Date()
        let zone = TimeZone(identifier: "Europe/Warsaw") ?? .gmt
        let today = LocalDate(now, in: zone)
        let startDate = today.adding(days: -5 * 365)
        let times = try ["08:00", "12:00", "18:00", "22:00"].map { try LocalTime($0) }
        var schedules: [(DoseSchedule, [LocalTime])] = []
        for index in 0..<10 {
            let medicationId = UUID()
            // Doses a day spread over the medications: with 4 a day in all,
            // the first four take one time each.
            let own = dosesPerDay >= 10 ? Array(times.prefix(dosesPerDay / 10)) : (index < dosesPerDay ? [times[index % 4]] : [])
            let schedule = DoseSchedule(medicationId: medicationId, pattern: .weekly(times: own.isEmpty ? [times[0]] : own, weekdays: Set(1...7)),
                                        amount: 1, startDate: startDate)
            _ = try await store.addMedication(
                Medication(id: medicationId, personId: seniorId, name: "Lek \(index + 1)", strength: "\(index + 1)0 mg",
                           instructions: "Po jedzeniu", stock: 60, packageSize: 30, createdAt: now, updatedAt: now),
                schedules: [schedule], as: adder, by: "bench")
            schedules.append((schedule, own))
        }
        // `make bench-smoke` runs it with a few (HEARTH_BENCH_NOTES).
        let notes = ProcessInfo.processInfo.environment["HEARTH_BENCH_NOTES"].flatMap(Int.init) ?? 2000
        for index in 0..<notes {
            _ = try await store.createNote(as: index % 2 == 0 ? adder : seniorMaker, title: index % 3 == 0 ? "" : "Notatka \(index)",
                                           text: "Lista zakupów \(index):\n[ ] mleko\n[ ] chleb\n[x] masło\nZadzwonić do przychodni we wtorek.",
                                           visibility: index % 2 == 0 ? .private : .shared, pinned: index % 50 == 0, by: "bench")
        }
        // Five years of answered doses, straight into the change log.
        let planned = schedules
        let database = try DatabaseQueue(path: directory.appendingPathComponent(HearthStore.fileName).path)
        try await database.write { db in
            for day in 0..<(5 * 365) {
                let date = startDate.adding(days: day)
                for (schedule, own) in planned {
                    for time in own {
                        let due = Date(timeIntervalSince1970: Double(date.dayNumber) * 86_400 + Double(time.minutesSinceMidnight) * 60 - 3600)
                        let dose = Dose(key: "\(schedule.id.text)/\(date)T\(time)", medicationId: schedule.medicationId,
                                        personId: seniorId, scheduleId: schedule.id, dueAt: due, plannedDate: date, plannedTime: time,
                                        amount: 1, status: .taken, takenAt: due.addingTimeInterval(600), recordedBy: seniorId,
                                        createdAt: due, updatedAt: due)
                        try db.execute(sql: "INSERT INTO changes (entity, entityId, op, payload, actor, time) VALUES ('dose', ?, 'create', ?, 'bench', ?)",
                                       arguments: [dose.id.text, try dose.json.jsonText(), Int64(due.timeIntervalSince1970 * 1000)])
                    }
                }
            }
        }
        try database.close()
        return (token, seniorId)
    }

    static func table(_ title: String, _ rows: [Row]) -> String {
        var lines = [title, "| measure | time (ms) | bytes received | entities |", "|---|---:|---:|---:|"]
        for row in rows {
            lines.append("| \(row.name) | \(String(format: "%.2f", row.milliseconds)) | \(row.bytes) | \(row.entities) |")
        }
        return lines.joined(separator: "\n")
    }
}

/// `#require` for a command line: a missing value is an error, not a crash.
func `require`<T>(_ value: T?) throws -> T {
    guard let value else { throw HearthError.notFound(what: "A seeded value") }
    return value
}
