import ArgumentParser
import Foundation
import HearthApp
import HearthCore
import Logging

/// The `hearth` command: argument parsing only; the work is in HearthApp.
@main
struct Hearth: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hearth",
        abstract: "Hearth, the household care hub.",
        discussion: """
            Exit codes: 0 stopped cleanly, 1 failed while running, \
            64 wrong command-line usage, 78 configuration error.
            """,
        version: HearthVersion.current,
        subcommands: [Serve.self, Pair.self, Devices.self, People.self, Backup.self, Restore.self, Discover.self, Say.self, SMS.self]
    )
}

/// Exit codes systemd and scripts can rely on (sysexits.h names).
enum ExitCode32: Int32 {
    case failure = 1
    case configuration = 78
}

/// Every failure ends as one plain line on stderr and a documented exit code.
func fail(_ message: String, code: ExitCode32 = .failure) -> Never {
    FileHandle.standardError.write(Data("hearth: \(message)\n".utf8))
    Foundation.exit(code.rawValue)
}

/// Loads the configuration the way `serve` does, or stops with exit 78.
func loadConfiguration(_ flags: HubConfiguration.Flags) async -> HubConfiguration {
    do {
        return try await HubConfiguration.load(flags: flags)
    } catch let problem as ConfigurationProblem {
        fail("\(problem)", code: .configuration)
    } catch {
        fail("configuration: \(error)", code: .configuration)
    }
}

