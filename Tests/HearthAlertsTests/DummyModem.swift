import Foundation
import HearthTestSupport

/// gammu-smsd on gammu's dummy phone, in a folder of the test's own, with
/// the files backend: what it sends lands in `sent/`.
final class DummyModem: @unchecked Sendable {
    struct Sent: Hashable { var number: String; var text: String }

    let directory: TemporaryDirectory
    let config: URL
    let daemon = Process()

    init() throws {
        directory = try TemporaryDirectory()
        let root = directory.url
        for folder in ["dummy/sms/1", "dummy/sms/2", "dummy/sms/3", "dummy/sms/4", "dummy/sms/5", "inbox", "outbox", "sent", "error"] {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        config = root.appendingPathComponent("smsdrc")
        try """
            [gammu]
            model = dummy
            connection = none
            device = \(root.path)/dummy

            [smsd]
            service = files
            logfile = \(root.path)/smsd.log
            inboxpath = \(root.path)/inbox/
            outboxpath = \(root.path)/outbox/
            sentsmspath = \(root.path)/sent/
            errorsmspath = \(root.path)/error/
            receivefrequency = 1
            commtimeout = 1
            sendtimeout = 5
            statusfrequency = 1
            checksecurity = 0
            """.write(to: config, atomically: true, encoding: .utf8)
        guard let program = ["/usr/bin/gammu-smsd", "/usr/local/bin/gammu-smsd"].first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw DummyModemError("gammu-smsd is not installed: `make test` installs it (apt install gammu-smsd)")
        }
        daemon.executableURL = URL(fileURLWithPath: program)
        daemon.arguments = ["-c", config.path]
        daemon.standardOutput = FileHandle.nullDevice
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
    }

    /// Stops the daemon (SIGTERM, then SIGKILL after 3 s): nothing is left running.
    func stop() {
        guard daemon.isRunning else { return }
        daemon.terminate()
        let deadline = Date().addingTimeInterval(3)
        while daemon.isRunning, Date() < deadline { usleep(50_000) }
        if daemon.isRunning { kill(daemon.processIdentifier, SIGKILL) }
    }

    /// What the daemon sent, once `count` texts are there (10 s at most).
    func sent(count: Int) async throws -> [Sent] {
        let folder = directory.url.appendingPathComponent("sent")
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            if files.count >= count {
                return try files.map { try Self.read(folder.appendingPathComponent($0)) }
            }
            try await Task.sleep(for: .milliseconds(200))
        }
        let log = (try? String(contentsOf: directory.url.appendingPathComponent("smsd.log"), encoding: .utf8)) ?? "no log"
        throw DummyModemError("gammu-smsd sent fewer than \(count) texts in 10 s; its log:\n\(log.suffix(2000))")
    }

    /// A sent text as gammu keeps it: an SMS backup file, the number as
    /// `Number = "…"`, the words as `TextNN = <UTF-16BE in hex>` in each part.
    static func read(_ file: URL) throws -> Sent {
        let content = try String(contentsOf: file, encoding: .utf8)
        var number = ""
        var text = Data()
        // Each part is a section ([SMSBackup000], [SMSBackup001] …); the
        // daemon may write a section again when it moves the file: read each once.
        var sections: Set<String> = []
        var reading = false
        for line in content.split(whereSeparator: \.isNewline) {
            if line.hasPrefix("[") {
                reading = sections.insert(String(line)).inserted
                continue
            }
            guard reading else { continue }
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2 else { continue }
            if parts[0] == "Number" { number = parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
            if parts[0].hasPrefix("Text"), parts[0].dropFirst(4).allSatisfy(\.isNumber) {
                var bytes = Data()
                var index = parts[1].startIndex
                while index < parts[1].endIndex, let next = parts[1].index(index, offsetBy: 2, limitedBy: parts[1].endIndex),
                      let byte = UInt8(parts[1][index..<next], radix: 16) {
                    bytes.append(byte)
                    index = next
                }
                text.append(bytes)
            }
        }
        return Sent(number: number, text: String(data: text, encoding: .utf16BigEndian) ?? "")
    }
}

struct DummyModemError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
