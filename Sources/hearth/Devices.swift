import ArgumentParser
import Foundation
import HearthApp

struct Devices: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List or revoke paired devices.",
        subcommands: [List.self, Revoke.self]
    )

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List paired devices.")
        @OptionGroup var store: StoreOptions

        func run() async throws {
            try await withRoster(store) { try await $0.devicesTable() }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke a device: it is signed out on its next request.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The device's ID, or the first 8 characters that `devices list` shows.")
        var id: String

        func run() async throws {
            try await withRoster(store) { try await $0.revoke(id) }
        }
    }
}

/// Opens the database, runs one roster action, prints its text; errors are one line.
func withRoster(_ options: StoreOptions, _ action: (HouseholdRoster) async throws -> String) async throws {
    let configuration = await loadConfiguration(options.flags)
    do {
        let store = try AdminStore.open(configuration)
        defer { try? store.close() }
        FileHandle.standardOutput.write(Data(try await action(HouseholdRoster(store: store)).utf8))
    } catch {
        fail("\(error)")
    }
}
