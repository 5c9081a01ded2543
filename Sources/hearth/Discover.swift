import ArgumentParser
import Foundation
import HearthApp

struct Discover: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Find hubs on the local network by mDNS (needs avahi-daemon running).")

    @Option(help: "How long to listen for hubs, e.g. 3s or 1m.")
    var timeout: String = "3s"

    func validate() throws {
        guard HubFinder.parseTimeout(timeout) != nil else {
            throw ValidationError("--timeout must be like 3s or 1m, from 1 second to 5 minutes, not \(timeout)")
        }
    }

    func run() async throws {
        guard let duration = HubFinder.parseTimeout(timeout) else { return }
        do {
            FileHandle.standardOutput.write(Data(try await HubFinder.listing(timeout: duration).utf8))
        } catch {
            fail("cannot look for hubs: \(error)")
        }
    }
}
