import ArgumentParser
import Foundation
import HearthApp
import HearthCore

extension Person.Role: ExpressibleByArgument {}

struct Pair: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Add a device: show a QR code for a phone or tablet to scan.",
        discussion: "Exits 0 when a device pairs, 1 when the code expires."
    )

    @OptionGroup var store: StoreOptions

    @Option(name: .long, help: "Pair a device for this person (by name).")
    var person: String?

    @Option(name: .customLong("new-person"), help: "Pair a device for someone new, created when it pairs.")
    var newPerson: String?

    @Option(name: .long, help: "The new person's role: senior, caregiver or admin.")
    var role: Person.Role?

    @Option(name: .customLong("device-name"), help: "A name for the device, e.g. \"Kitchen tablet\".")
    var deviceName: String?

    @Option(name: .long, help: "How long the code stays valid, e.g. 10m, 90s, 1h (default 10m).")
    var ttl: String = "10m"

    @Flag(name: .long, help: "Draw the QR code with # and spaces instead of block characters.")
    var ascii = false

    @Option(name: .customLong("url-host"), help: "Host or address to put in the URL instead of this machine's LAN address.")
    var urlHost: String?

    @Option(name: .long, help: "The hub's HTTP port for the URL (default: the running hub's own, else the configuration's).")
    var port: Int?

    func validate() throws {
        guard PairingDuration.parse(ttl) != nil else {
            throw ValidationError("--ttl must look like 10m, 90s or 1h (from 30 seconds to 24 hours)")
        }
        if let port, !(1...65_535).contains(port) {
            throw ValidationError("--port must be from 1 to 65535")
        }
    }

    func run() async throws {
        let configuration = await loadConfiguration(store.flags)
        var options = PairingSession.Options()
        options.person = person
        options.newPerson = newPerson
        options.role = role
        options.deviceName = deviceName
        options.lifetime = PairingDuration.parse(ttl) ?? PairingCode.defaultLifetime
        options.ascii = ascii
        options.urlHost = urlHost
        do {
            let hearthStore = try AdminStore.open(configuration)
            defer { try? hearthStore.close() }
            // The port the link carries: as told, else where the running hub
            // says it listens (it may have been started with --port), else
            // the configuration's.
            let directory = URL(fileURLWithPath: configuration.dataDirectory, isDirectory: true)
            let linkPort = port ?? DataDirectoryLock.announcedPort(directory: directory) ?? configuration.port
            let session = PairingSession(
                store: hearthStore, port: linkPort, listenHost: configuration.host, options: options,
                isTerminal: isatty(STDOUT_FILENO) == 1
            ) { text in FileHandle.standardOutput.write(Data(text.utf8)) }
            if try await session.run() == .expired { throw ExitCode(1) }
        } catch let exit as ExitCode {
            throw exit
        } catch {
            fail("\(error)")
        }
    }
}
