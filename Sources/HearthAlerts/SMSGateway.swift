import Foundation

/// Why a text could not be handed to the modem's daemon; said once in
/// health and the log, and the text is tried again later.
public enum SMSProblem: Error, Sendable, Equatable, CustomStringConvertible {
    case missing(program: String)
    case refused(String)

    public var description: String {
        switch self {
        case .missing(let program): "\(program) is not installed (apt install gammu-smsd)"
        case .refused(let detail): "gammu-smsd did not take the text: \(detail)"
        }
    }
}

/// Texts go out through gammu-smsd, the SMS daemon of Debian's `gammu-smsd`,
/// which owns the USB modem: the hub never speaks AT commands itself. Each
/// text is handed to the daemon's queue with `gammu-smsd-inject` (the same
/// configuration file as the daemon, `sms.smsdConfig`), which works with
/// every backend the daemon may be set up with; the daemon sends it when
/// the modem can. The words go on standard input, never on a command line
/// another user of the machine could read.
public struct SMSGateway: Sendable {
    /// gammu-smsd's configuration (`/etc/gammu-smsdrc` installed).
    public let configPath: String
    /// Where to look for gammu-smsd-inject; the service's PATH.
    let searchPath: [String]
    /// Longer than the daemon's queue ever takes to answer; a stuck one is stopped.
    var limit: Duration = .seconds(30)

    public init(configPath: String, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.configPath = configPath
        searchPath = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init)
    }

    /// Queues `message` for `number`; returns the daemon's id for it (what
    /// gammu-smsd-inject printed: "Written message with ID …").
    public func send(_ message: TextMessage, to number: String) async throws(SMSProblem) -> String {
        guard let inject = searchPath.lazy.map({ URL(fileURLWithPath: $0).appendingPathComponent("gammu-smsd-inject") })
            .first(where: { FileManager.default.isExecutableFile(atPath: $0.path) })
        else { throw .missing(program: "gammu-smsd-inject") }
        guard Self.isDialable(number) else { throw .refused("not a number a modem can dial: \(number.prefix(30))") }
        let process = Process()
        process.executableURL = inject
        var arguments = ["-c", configPath, "TEXT", number]
        if message.coding == .ucs2 { arguments.append("-unicode") }
        // A longer text goes as one concatenated message, not cut.
        if message.parts > 1 { arguments += ["-len", String(message.length)] }
        process.arguments = arguments
        let (input, output) = (Pipe(), Pipe())
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        let finished = Speaker.exits(of: [process])
        do { try process.run() } catch { throw .refused("\(error)") }
        try? input.fileHandleForWriting.write(contentsOf: Data(message.text.utf8))
        try? input.fileHandleForWriting.close()
        let status = await Speaker.wait(for: finished, processes: [process], limit: limit).first ?? -1
        let said = String(decoding: output.fileHandleForReading.availableData.prefix(2000), as: UTF8.self)
        guard status == 0, let line = said.split(separator: "\n").first(where: { $0.contains("Written message with ID") }) else {
            throw .refused(said.split(separator: "\n").last.map(String.init) ?? "exit \(status)")
        }
        return line.components(separatedBy: "Written message with ID").last?.trimmingCharacters(in: .whitespaces) ?? String(line)
    }

    /// A number as a modem dials it: an optional + and 3 to 20 digits, once
    /// the spaces, dashes and brackets people write are taken out.
    public static func dialable(_ written: String) -> String? {
        let kept = written.filter { !" -().\u{00A0}".contains($0) }
        return isDialable(kept) ? kept : nil
    }

    static func isDialable(_ number: String) -> Bool {
        let digits = number.hasPrefix("+") ? number.dropFirst() : Substring(number)
        return (3...20).contains(digits.count) && digits.allSatisfy { $0.isASCII && $0.isNumber }
    }
}
