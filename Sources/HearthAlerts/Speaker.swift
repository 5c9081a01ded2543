import Foundation
import HearthCore

/// Why the hub could not say something; said once in health and the log.
public enum SpeechProblem: Error, Sendable, Equatable, CustomStringConvertible {
    case missing(program: String)
    case noSpeaker(String)
    case failed(String)

    public var description: String {
        switch self {
        case .missing(let program): "\(program) is not installed (apt install espeak-ng alsa-utils)"
        case .noSpeaker(let detail): "no speaker to play on: \(detail)"
        case .failed(let detail): "speaking failed: \(detail)"
        }
    }
}

/// The hub's voice: espeak-ng makes the words into sound and aplay plays
/// it through ALSA, so the speaker is whatever ALSA calls `device` (a USB
/// speaker, the Pi's jack, or a file in the tests). The text goes to
/// espeak-ng on standard input, never on its command line.
public struct Speaker: Sendable {
    public let device: String
    /// Where to look for the programs; the service's PATH.
    let searchPath: [String]
    /// Longer than any line the hub says; a stuck player is stopped.
    var limit: Duration = .seconds(60)

    public init(device: String = "default", environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.device = device
        searchPath = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init)
    }

    /// The path of a program on the search path, if it is there.
    func program(_ name: String) -> URL? {
        searchPath.lazy.map { URL(fileURLWithPath: $0).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// espeak-ng's own speed, in words a minute: `normal`.
    public static let normalRate = 175

    /// How fast a person's things are read to them, in espeak-ng's words a
    /// minute; the same steps the browsers use (Web/preferences.js).
    public static func wordsPerMinute(_ rate: DisplaySettings.SpeechRate) -> Int {
        let factor = switch rate {
        case .slower: 0.6
        case .slow: 0.8
        case .normal: 1.0
        case .fast: 1.25
        }
        return Int((Double(normalRate) * factor).rounded())
    }

    /// Says `text` in `voice` at `rate` words a minute and returns when it has been played.
    public func say(_ text: String, voice: String, rate: Int = Speaker.normalRate) async throws(SpeechProblem) {
        guard let espeak = program("espeak-ng") else { throw .missing(program: "espeak-ng") }
        guard let aplay = program("aplay") else { throw .missing(program: "aplay") }
        let synthesizer = Process()
        synthesizer.executableURL = espeak
        synthesizer.arguments = ["-v", SpeechSettings.isVoiceName(voice) ? voice : "en", "-s", String(min(max(rate, 80), 400)), "--stdout"]
        let player = Process()
        player.executableURL = aplay
        player.arguments = ["-q", "-D", device]
        let (words, sound, complaint) = (Pipe(), Pipe(), Pipe())
        synthesizer.standardInput = words
        synthesizer.standardOutput = sound
        synthesizer.standardError = FileHandle.nullDevice
        player.standardInput = sound
        player.standardOutput = FileHandle.nullDevice
        player.standardError = complaint
        let finished = Self.exits(of: [synthesizer, player])
        do {
            try synthesizer.run()
            try player.run()
        } catch {
            if synthesizer.isRunning { synthesizer.terminate() }
            throw .failed("\(error)")
        }
        // A synthesizer that fails at once (a voice it has no data for)
        // leaves no one to read: the write then fails, and must not stop the hub.
        Self.brokenPipesFail
        try? words.fileHandleForWriting.write(contentsOf: Data(text.utf8))
        try? words.fileHandleForWriting.close()
        let statuses = await Self.wait(for: finished, processes: [synthesizer, player], limit: limit)
        guard statuses.allSatisfy({ $0 == 0 }) else {
            let said = String(decoding: complaint.fileHandleForReading.availableData.prefix(300), as: UTF8.self)
                .split(separator: "\n").last.map(String.init) ?? "exit \(statuses)"
            throw statuses.last != 0 ? .noSpeaker(said) : .failed("espeak-ng exited with \(statuses.first ?? -1)")
        }
    }

    /// Writing to a pipe whose reader is gone fails with EPIPE rather than
    /// ending the process with SIGPIPE, as a server's writes should.
    private static let brokenPipesFail: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

    /// Each process's exit status, as it comes.
    static func exits(of processes: [Process]) -> AsyncStream<Int32> {
        let (stream, continuation) = AsyncStream<Int32>.makeStream()
        for process in processes {
            process.terminationHandler = { continuation.yield($0.terminationStatus) }
        }
        return stream
    }

    /// Waits for every process to end, stopping them after `limit`; their
    /// statuses in the order given.
    static func wait(for exits: AsyncStream<Int32>, processes: [Process], limit: Duration) async -> [Int32] {
        let guardTask = Task {
            try await Task.sleep(for: limit)
            for process in processes where process.isRunning { process.terminate() }
        }
        var ended = 0
        for await _ in exits {
            ended += 1
            if ended == processes.count { break }
        }
        guardTask.cancel()
        return processes.map(\.terminationStatus)
    }
}
