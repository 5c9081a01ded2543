import Foundation
import HearthCRDT
import HearthSocketClient
import Logging
import NIOCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Relaying on a live hub: one editor types into a note that many others
/// have open; how long each keystroke takes from leaving the typist to
/// arriving at each of them, and how much memory the hub holds meanwhile.
///
/// Starts the given `hearth` binary on a loopback port with a fresh data
/// directory, pairs a device with `hearth pair` and the pairing API, creates
/// a shared note, and speaks the editing protocol (NoteEditController) to it.
enum RelayBenchmark {
    struct Options {
        var binary = ".build/release/hearth"
        var listeners = 50
        var characters = 200
        var perSecond = 20
        /// How much text the note holds before the typing starts: every
        /// keystroke is stored with the note's text, so its size matters.
        var noteKB = 0
    }

    struct Result {
        var delays: [Duration]
        /// Per keystroke, the delay to the first listener that heard of it.
        var firstDelays: [Duration]
        /// The disk under the data directory: how long an fdatasync of a
        /// commit's size took, at the typist's pace (what the typist's
        /// acknowledgement waits for; the hub relays before it stores).
        var diskSyncs: [Duration]
        var residentKB: Int
        var privateDirtyKB: Int
        var listeners: Int
        var characters: Int
        var noteKB: Int
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func run(_ options: Options) async throws -> Result {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: data) }
        // A binary linked moments ago still has pages waiting for the disk,
        // and mapped they count as private dirty memory the hub does not own.
        let binary = open(options.binary, O_RDONLY)
        if binary >= 0 {
            fsync(binary)
            close(binary)
        }
        let hub = Process()
        hub.executableURL = URL(fileURLWithPath: options.binary)
        hub.arguments = ["serve", "--data", data.path, "--port", "0", "--host", "127.0.0.1"]
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("HEARTH_") }
        environment["HEARTH_DISCOVERY_ENABLED"] = "false"
        hub.environment = environment
        let output = Pipe()
        hub.standardOutput = output
        hub.standardError = FileHandle.nullDevice
        try hub.run()
        defer {
            hub.terminate()
            hub.waitUntilExit()
        }
        let port = try listeningPort(output)
        let base = "http://127.0.0.1:\(port)"
        try await waitForHealth(base)
        let token = try await pairDevice(binary: options.binary, data: data, port: port, base: base)
        let noteId = try await createNote(base: base, token: token)
        let url = "ws://127.0.0.1:\(port)/api/v1/notes/\(noteId)/edit"
        if options.noteKB > 0 { try await fill(url: url, token: token, kilobytes: options.noteKB) }

        let outcome = try await RelayEditors(
            port: port, path: "/api/v1/notes/\(noteId)/edit", token: token, listeners: options.listeners,
            characters: options.characters, perSecond: options.perSecond, hub: hub.processIdentifier
        ).run()
        let (sent, arrivals, memory) = (outcome.sent, outcome.arrivals, outcome.hubMemory)
        let delays = arrivals.compactMap { arrival in sent[arrival.counter].map { arrival.at - $0 } }
        // The first listener to hear of a keystroke shows what storing it
        // costs; the rest of the delay is handing it to the others.
        var firstArrivals: [UInt64: Duration] = [:]
        for arrival in arrivals {
            guard let start = sent[arrival.counter] else { continue }
            firstArrivals[arrival.counter] = min(firstArrivals[arrival.counter] ?? .seconds(3600), arrival.at - start)
        }
        let diskSyncs = try diskSyncTimes(in: data, count: options.characters, perSecond: options.perSecond)
        return Result(delays: delays, firstDelays: Array(firstArrivals.values), diskSyncs: diskSyncs,
                      residentKB: memory.resident, privateDirtyKB: memory.dirty,
                      listeners: options.listeners, characters: options.characters, noteKB: options.noteKB)
    }

    /// A typed character reaching a listener.
    struct Arrival: Sendable {
        let counter: UInt64
        let at: ContinuousClock.Instant
    }

    // MARK: Setting up

    /// Writes `kilobytes` of shopping-list text into the note, as one
    /// pasted insertion, and waits until the hub has stored it.
    static func fill(url: String, token: String, kilobytes: Int) async throws {
        _ = try await HubWebSocket.connect(
            url: url, configuration: .init(maxFrameSize: 1 << 20, additionalHeaders: [.authorization: "Bearer \(token)"]),
            logger: Logger(label: "filler")
        ) { inbound, outbound, _ in
            try await outbound.write(.binary(ByteBuffer(bytes: [1, 0x01] + VersionVector().encoded())))
            var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
            let note = NoteText(replica: 515_151)
            while let message = try await messages.next() {
                guard case .binary(let buffer) = message, buffer.readableBytes >= 2 else { continue }
                if buffer.readableBytesView[buffer.readerIndex + 1] == 0x12 { break }
            }
            let line = "Zakupy: mleko, chleb, masło, jajka, pomidory, ser żółty.\n"
            let text = String(repeating: line, count: kilobytes * 1024 / line.utf8.count + 1)
            let operation = try note.insert(text, at: 0)
            try await outbound.write(.binary(ByteBuffer(bytes: [UInt8(1), 0x02] + NoteOperation.encode([operation]))))
            while let message = try await messages.next() {
                guard case .binary(let buffer) = message, buffer.readableBytes >= 2 else { continue }
                if buffer.readableBytesView[buffer.readerIndex + 1] == 0x13 { break }
            }
            try await outbound.close(.normalClosure, reason: nil)
            while (try? await messages.next()) != nil {}
        }
    }

    /// The port from the hub's `hub ready url=http://127.0.0.1:PORT/` log line.
    static func listeningPort(_ output: Pipe) throws -> Int {
        var text = ""
        while true {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw Failure(description: "the hub stopped before it was ready") }
            text += String(decoding: chunk, as: UTF8.self)
            if let line = text.split(separator: "\n").first(where: { $0.contains("hub ready") }),
               let url = line.split(separator: "url=").last,
               let port = Int(url.split(separator: ":").last?.trimmingCharacters(in: CharacterSet(charactersIn: "/ \"")) ?? "") {
                return port
            }
        }
    }

    static func waitForHealth(_ base: String) async throws {
        // Up to 30 s: a hub run under valgrind (Packaging/layout/profile) starts slowly.
        for _ in 0..<300 {
            if let (_, response) = try? await URLSession.shared.data(from: URL(string: "\(base)/api/v1/health")!),
               (response as? HTTPURLResponse)?.statusCode == 200 { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw Failure(description: "the hub did not answer health within 30 s")
    }

    /// Runs `hearth pair` as an admin would and exchanges its code for a token.
    static func pairDevice(binary: String, data: URL, port: Int, base: String) async throws -> String {
        let pair = Process()
        pair.executableURL = URL(fileURLWithPath: binary)
        pair.arguments = ["pair", "--data", data.path, "--new-person", "Bench", "--role", "admin", "--url-host", "127.0.0.1", "--ascii"]
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("HEARTH_") }
        environment["HEARTH_HTTP_PORT"] = "\(port)"
        pair.environment = environment
        let output = Pipe()
        pair.standardOutput = output
        try pair.run()
        var text = ""
        while !text.contains("Code to type") {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw Failure(description: "hearth pair printed no code") }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard let line = text.split(separator: "\n").first(where: { $0.contains("/pair#") }),
              let secret = line.split(separator: "#").last.map(String.init)
        else { throw Failure(description: "no pairing URL in hearth pair's output") }
        var request = URLRequest(url: URL(string: "\(base)/api/v1/pairing")!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONSerialization.data(withJSONObject: ["code": secret.trimmingCharacters(in: .whitespaces), "deviceName": "bench"])
        let (body, _) = try await URLSession.shared.data(for: request)
        pair.terminate()
        guard let object = try JSONSerialization.jsonObject(with: body) as? [String: Any], let token = object["token"] as? String else {
            throw Failure(description: "pairing failed: \(String(decoding: body, as: UTF8.self))")
        }
        return token
    }

    static func createNote(base: String, token: String) async throws -> String {
        var request = URLRequest(url: URL(string: "\(base)/api/v1/notes")!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        request.httpBody = Data(#"{"title": "Zakupy", "visibility": "shared"}"#.utf8)
        let (body, _) = try await URLSession.shared.data(for: request)
        guard let object = try JSONSerialization.jsonObject(with: body) as? [String: Any], let id = object["id"] as? String else {
            throw Failure(description: "could not create a note: \(String(decoding: body, as: UTF8.self))")
        }
        return id
    }

    /// Resident and private dirty memory of a process, in kB, from /proc.
    static func hubMemory(pid: Int32) throws -> (resident: Int, dirty: Int) {
        func value(_ key: String, in path: String) -> Int {
            let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            let line = text.split(separator: "\n").first { $0.hasPrefix(key + ":") } ?? ""
            return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
        }
        return (value("VmRSS", in: "/proc/\(pid)/status"), value("Private_Dirty", in: "/proc/\(pid)/smaps_rollup"))
    }

    static func table(_ result: Result) -> String {
        let delays = result.delays.sorted(), first = result.firstDelays.sorted(), disk = result.diskSyncs.sorted()
        func percentile(_ sorted: [Duration], _ p: Double) -> String {
            guard !sorted.isEmpty else { return "-" }
            let duration = sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
            return String(format: "%.2f", Double(duration.components.attoseconds) / 1e15 + Double(duration.components.seconds) * 1000)
        }
        let slowSyncs = disk.filter { $0 > .milliseconds(5) }.count
        return """
            | relay: 1 typist, \(result.listeners) listeners, \(result.characters) keystrokes\(result.noteKB > 0 ? " into \(result.noteKB) KB" : "") | measured | target |
            |---|---:|---:|
            | deliveries | \(delays.count) | \(result.listeners * result.characters) |
            | p50 delay ms | \(percentile(delays, 0.5)) | - |
            | p99 delay ms | \(percentile(delays, 0.99)) | < 5 |
            | max delay ms | \(percentile(delays, 1.0)) | - |
            | first listener p50 / p99 ms | \(percentile(first, 0.5)) / \(percentile(first, 0.99)) | - |
            | disk fdatasync p50 / p99 / max ms | \(percentile(disk, 0.5)) / \(percentile(disk, 0.99)) / \(percentile(disk, 1.0)) | - |
            | disk fdatasyncs over 5 ms | \(slowSyncs) of \(disk.count) | - |
            | hub resident kB | \(result.residentKB) | < 40960 |
            | hub private dirty kB | \(result.privateDirtyKB) | - |
            """
    }

    /// Times `count` fdatasyncs of 32 KiB rewritten in a file in `directory`,
    /// `perSecond` of them a second: what each keystroke's acknowledgement
    /// waits for (relaying does not), measured apart from the hub. Runs after the
    /// typing, so it does not compete with it.
    static func diskSyncTimes(in directory: URL, count: Int, perSecond: Int) throws -> [Duration] {
        let path = directory.appendingPathComponent("sync-probe").path
        let descriptor = open(path, O_RDWR | O_CREAT, 0o600)
        guard descriptor >= 0 else { throw Failure(description: "cannot create \(path)") }
        defer {
            close(descriptor)
            unlink(path)
        }
        let page = [UInt8](repeating: 0x5a, count: 32 * 1024)
        let clock = ContinuousClock()
        var times: [Duration] = []
        for index in 0..<count {
            let written = page.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, off_t(index % 64 * page.count)) }
            guard written == page.count else { throw Failure(description: "cannot write \(path)") }
            let start = clock.now
            guard fdatasync(descriptor) == 0 else { throw Failure(description: "cannot sync \(path)") }
            times.append(clock.now - start)
            usleep(useconds_t(1_000_000 / perSecond))
        }
        return times
    }
}
