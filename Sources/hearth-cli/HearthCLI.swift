import ArgumentParser
import Foundation
import HearthCore
import HearthKit

/// An example app on HearthKit: today's doses and the household's notes in
/// a terminal. Every command works on the local mirror, so it works with
/// the hub away; then it syncs, unless told not to, and says if it could not.
@main
struct HearthCLI: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hearth-cli",
        abstract: "Today's doses and the household's notes, through HearthKit (works offline).",
        subcommands: [Sync.self, Today.self, Take.self, Skip.self, Notes.self, Note.self, AddNote.self, EditNote.self]
    )
}

/// Where the hub and this device's mirror are.
struct Connection: ParsableArguments {
    @Option(help: "The hub's address (or HEARTH_HUB), e.g. http://hearth.local:8080/")
    var hub: String?
    // Unconditional: a token may begin with "-", and is still a value.
    @Option(parsing: .unconditional, help: "This device's token from pairing (or HEARTH_TOKEN).")
    var token: String?
    @Option(help: "The mirror's SQLite file (or HEARTH_MIRROR).")
    var mirror: String?
    @Flag(help: "Work on the mirror only; sync another time.")
    var offline = false

    func client() throws -> HearthClient {
        let environment = ProcessInfo.processInfo.environment
        guard let address = hub ?? environment["HEARTH_HUB"], let url = URL(string: address), url.scheme != nil else {
            throw ValidationError("Give the hub's address with --hub or HEARTH_HUB, e.g. http://hearth.local:8080/")
        }
        guard let token = token ?? environment["HEARTH_TOKEN"], !token.isEmpty else {
            throw ValidationError("Give this device's token with --token or HEARTH_TOKEN")
        }
        let path = mirror ?? environment["HEARTH_MIRROR"]
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".hearth-cli.sqlite").path
        return HearthClient(baseURL: url, token: token, store: try HearthMirror(path: path))
    }

    /// Syncs unless offline; one plain line when the hub cannot be reached.
    func syncIfOnline(_ client: HearthClient) async {
        guard !offline else { return }
        do {
            try await client.sync()
        } catch {
            let waiting = (try? await client.mirror.pendingCount()) ?? 0
            print("Not synced (\(error)); \(waiting) change(s) wait on this device.")
        }
    }
}

struct Sync: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Push what waits and pull what changed.")
    @OptionGroup var connection: Connection

    func run() async throws {
        let client = try connection.client()
        do {
            let report = try await client.sync()
            print("Synced: \(report.pushed) pushed, \(report.pulled) pulled, \(report.bytesReceived) bytes in \(report.rounds) round(s).")
        } catch {
            // Asked to sync and could not: one plain line, and a failing status
            // a script can test (edits made by other commands still wait).
            print("Not synced: \(error)")
            throw ExitCode.failure
        }
    }
}

struct Today: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List today's planned doses and their answers.")
    @OptionGroup var connection: Connection

    func run() async throws {
        let client = try connection.client()
        await connection.syncIfOnline(client)
        let doses = try await client.mirror.today()
        if doses.isEmpty { print("No doses planned today.") }
        for (index, dose) in doses.enumerated() {
            let waiting = dose.waitingToSync ? " (not yet synced)" : ""
            print("\(index + 1). \(dose.time)  \(dose.medicationName) × \(dose.amount.formatted())  \(dose.status.rawValue)\(waiting)")
        }
    }
}

/// Answers one of today's doses, by its number in `today`'s list.
struct Answer {
    static func record(_ status: TodayDose.Status, number: Int, connection: Connection) async throws {
        let client = try connection.client()
        let doses = try await client.mirror.today()
        guard doses.indices.contains(number - 1) else {
            throw ValidationError("There is no dose \(number) today; `hearth-cli today` lists them")
        }
        let dose = doses[number - 1]
        try await client.record(doseKey: dose.key, status: status)
        print("\(dose.medicationName) at \(dose.time): \(status.rawValue).")
        await connection.syncIfOnline(client)
    }
}

struct Take: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Record one of today's doses as taken.")
    @OptionGroup var connection: Connection
    @Argument(help: "The dose's number in `hearth-cli today`.") var number: Int
    func run() async throws { try await Answer.record(.taken, number: number, connection: connection) }
}

struct Skip: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Record one of today's doses as skipped.")
    @OptionGroup var connection: Connection
    @Argument(help: "The dose's number in `hearth-cli today`.") var number: Int
    func run() async throws { try await Answer.record(.skipped, number: number, connection: connection) }
}

struct Notes: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the notes (pinned first).")
    @OptionGroup var connection: Connection

    func run() async throws {
        let client = try connection.client()
        await connection.syncIfOnline(client)
        for note in try await client.mirror.notes() {
            print("\(note.id.uuidString.lowercased())  \(note.pinned ? "📌 " : "")\(note.displayTitle)\(note.isShared ? "" : " (private)")")
        }
    }
}

struct Note: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print one note's text.")
    @OptionGroup var connection: Connection
    @Argument(help: "The note's id (from `hearth-cli notes`).") var id: String

    func run() async throws {
        let client = try connection.client()
        await connection.syncIfOnline(client)
        guard let id = UUID(uuidString: id), let note = try await client.mirror.note(id: id) else {
            throw ValidationError("No such note on this device")
        }
        print(note.text)
    }
}

struct AddNote: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add-note", abstract: "Write a new note.")
    @OptionGroup var connection: Connection
    // Unconditional: "- milk" is a note's text, not an option.
    @Option(parsing: .unconditional, help: "The title (optional: lists show the first line).") var title = ""
    @Option(parsing: .unconditional, help: "The text.") var text = ""
    @Flag(help: "Share it with the household (otherwise only you see it).") var shared = false

    func run() async throws {
        let client = try connection.client()
        let id = try await client.createNote(title: title, text: text, shared: shared)
        print(id.uuidString.lowercased())
        await connection.syncIfOnline(client)
    }
}

struct EditNote: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "edit-note", abstract: "Add a line to a note, or replace its text.")
    @OptionGroup var connection: Connection
    @Argument(help: "The note's id.") var id: String
    @Option(parsing: .unconditional, help: "A line to add at the end.") var append: String?
    @Option(parsing: .unconditional, help: "The whole new text (only what differs is sent, so others' typing merges).") var text: String?

    func run() async throws {
        guard let id = UUID(uuidString: id) else { throw ValidationError("Not a note id: \(self.id)") }
        guard (append == nil) != (text == nil) else { throw ValidationError("Give --append or --text") }
        let client = try connection.client()
        guard let note = try await client.mirror.note(id: id) else { throw ValidationError("No such note on this device") }
        if let append {
            let separator = note.text.isEmpty || note.text.hasSuffix("\n") ? "" : "\n"
            try await client.setNoteText(id: id, to: note.text + separator + append + "\n")
        } else if let text {
            try await client.setNoteText(id: id, to: text)
        }
        print("Saved on this device.")
        await connection.syncIfOnline(client)
    }
}
