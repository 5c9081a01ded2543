import ArgumentParser
import HearthApp
import HearthCore

struct People: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List, add, rename, archive and link the people in the household.",
        subcommands: [List.self, Add.self, Rename.self, Phone.self, Role.self, Archive.self, Restore.self, Link.self, Unlink.self]
    )

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the people in the household.")
        @OptionGroup var store: StoreOptions
        @Flag(name: .long, help: "Include archived people.") var archived = false

        func run() async throws {
            try await withRoster(store) { try await $0.peopleTable(includingArchived: archived) }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add a person.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "Their name as the household says it.") var name: String
        @Option(name: .long, help: "senior, caregiver or admin.") var role: Person.Role

        func run() async throws {
            try await withRoster(store) { try await $0.add(name: name, role: role) }
        }
    }

    struct Rename: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Give a person a new name.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "Their name or ID now.") var person: String
        @Argument(help: "Their new name.") var name: String

        func run() async throws {
            try await withRoster(store) { try await $0.rename(person, to: name) }
        }
    }

    struct Phone: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Set the number a person is called on (\"\" removes it).")
        @OptionGroup var store: StoreOptions
        @Argument(help: "Their name or ID.") var person: String
        @Argument(help: "The number, e.g. \"+48 601 234 567\"; \"\" to remove it.") var number: String

        func run() async throws {
            try await withRoster(store) { try await $0.setPhone(of: person, to: number) }
        }
    }

    struct Role: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Change a person's role (the household always keeps an admin).")
        @OptionGroup var store: StoreOptions
        @Argument(help: "Their name or ID.") var person: String
        @Argument(help: "senior, caregiver or admin.") var role: Person.Role

        func run() async throws {
            try await withRoster(store) { try await $0.setRole(of: person, to: role) }
        }
    }

    struct Restore: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Bring an archived person back; they pair a device again.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "Their name or ID.") var person: String

        func run() async throws {
            try await withRoster(store) { try await $0.restore(person) }
        }
    }

    struct Archive: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Archive a person: their devices stop working, their history stays.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "Their name or ID.") var person: String

        func run() async throws {
            try await withRoster(store) { try await $0.archive(person) }
        }
    }

    struct Link: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Say that a caregiver looks after a senior.")
        @OptionGroup var store: StoreOptions
        @Option(name: .long, help: "The caregiver's (or admin's) name.") var caregiver: String
        @Option(name: .long, help: "The senior's name.") var senior: String

        func run() async throws {
            try await withRoster(store) { try await $0.link(caregiver: caregiver, senior: senior) }
        }
    }

    struct Unlink: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Say that a caregiver no longer looks after a senior.")
        @OptionGroup var store: StoreOptions
        @Option(name: .long, help: "The caregiver's (or admin's) name.") var caregiver: String
        @Option(name: .long, help: "The senior's name.") var senior: String

        func run() async throws {
            try await withRoster(store) { try await $0.unlink(caregiver: caregiver, senior: senior) }
        }
    }
}
