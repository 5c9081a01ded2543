import ArgumentParser
import Foundation
import HearthApp

struct Backup: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Copy the hub's database into FILE, safely while the hub is running.",
        discussion: "The copy is checked with SQLite's integrity check. Exits 0 when the backup is complete, 1 otherwise."
    )

    @OptionGroup var store: StoreOptions
    @Argument(help: "The new backup file (an existing file is never replaced).") var file: String

    func run() async throws {
        let configuration = await loadConfiguration(store.flags)
        do {
            FileHandle.standardOutput.write(Data(try HubBackup.backup(configuration, to: file).utf8))
        } catch {
            fail("backup: \(error)")
        }
    }
}

struct Restore: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Replace the hub's database with a backup; the hub must be stopped.",
        discussion: """
            The previous database is kept as hearth.sqlite.bak in the data directory. \
            Exits 0 when restored, 1 when nothing was changed (a hub is running, or FILE is not a Hearth backup).
            """
    )

    @OptionGroup var store: StoreOptions
    @Argument(help: "A file made by `hearth backup`.") var file: String

    func run() async throws {
        let configuration = await loadConfiguration(store.flags)
        do {
            FileHandle.standardOutput.write(Data(try await HubBackup.restore(configuration, from: file).utf8))
        } catch {
            fail("restore: \(error)")
        }
    }
}
