import Foundation

/// What gammu-smsd says of the modem, read with `gammu-smsd-monitor` (the
/// daemon's status in shared memory, written every `statusfrequency`
/// seconds): the signal, and the texts it sent, received and failed since
/// it started. Health shows it, so an admin sees "no signal" before a text
/// fails. The phone's and SIM's numbers (IMEI, IMSI) are read past: they
/// identify the household's line.
public struct ModemReading: Sendable, Equatable, Encodable {
    /// 0…100, as the modem reports it.
    public var signalPercent: Int?
    public var sent: Int?
    public var received: Int?
    public var failed: Int?

    /// The monitor's `Key: value` lines; nil when none of them is there.
    public init?(monitorOutput: String) {
        var values: [String: Int] = [:]
        for line in monitorOutput.split(whereSeparator: \.isNewline) {
            let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, let number = Int(parts[1]) else { continue }
            values[parts[0]] = number
        }
        guard !values.isEmpty, values["NetworkSignal"] != nil || values["Sent"] != nil else { return nil }
        signalPercent = values["NetworkSignal"].map { max(0, min(100, $0)) }
        sent = values["Sent"]
        received = values["Received"]
        failed = values["Failed"]
    }
}

public enum ModemMonitor {
    /// One reading from the running daemon of `configPath`; throws an
    /// `SMSProblem` when the monitor is missing or the daemon is not running.
    public static func read(configPath: String, environment: [String: String] = ProcessInfo.processInfo.environment,
                            limit: Duration = .seconds(5)) async throws(SMSProblem) -> ModemReading {
        let searchPath = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init)
        guard let monitor = searchPath.lazy.map({ URL(fileURLWithPath: $0).appendingPathComponent("gammu-smsd-monitor") })
            .first(where: { FileManager.default.isExecutableFile(atPath: $0.path) })
        else { throw .missing(program: "gammu-smsd-monitor") }
        let process = Process()
        process.executableURL = monitor
        process.arguments = ["-c", configPath, "-n", "1", "-d", "0"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        let finished = Speaker.exits(of: [process])
        do { try process.run() } catch { throw .refused("\(error)") }
        let status = await Speaker.wait(for: finished, processes: [process], limit: limit).first ?? -1
        let said = String(decoding: output.fileHandleForReading.availableData.prefix(4000), as: UTF8.self)
        guard status == 0, let reading = ModemReading(monitorOutput: said) else {
            throw .refused("gammu-smsd is not running, or keeps no status (statusfrequency = 0)")
        }
        return reading
    }
}
