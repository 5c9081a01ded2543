import ArgumentParser
import Foundation
import HearthApp

struct SMS: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sms",
        abstract: "Texts through the hub's modem (gammu-smsd): test one, or take the replies gammu-smsd received.",
        subcommands: [Test.self, Received.self]
    )

    struct Test: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Send a test text through gammu-smsd, as alerts are texted (checks the modem over SSH).")
        @Argument(help: "The phone number, e.g. +48600100200.")
        var number: String
        @OptionGroup var store: StoreOptions

        func run() async throws {
            let configuration = await loadConfiguration(store.flags)
            // The household's name and language, when the database is there to say them.
            let hearthStore = try? AdminStore.open(configuration)
            defer { try? hearthStore?.close() }
            do {
                FileHandle.standardOutput.write(Data(try await ReceivedTexts.test(
                    to: number, configuration: configuration, store: hearthStore).utf8))
            } catch {
                fail("\(error)")
            }
        }
    }

    struct Received: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "gammu-smsd's RunOnReceive: hand the texts it received (SMS_MESSAGES, SMS_n_NUMBER, SMS_n_TEXT) to the hub.",
            discussion: "A reply \"1 <code>\" or \"2 <code>\" from the number the hub texted answers that alert; anything else is ignored.")
        @OptionGroup var store: StoreOptions
        // gammu-smsd passes the inbox file names; the environment says it all.
        @Argument(help: .hidden) var inboxFiles: [String] = []

        func run() async throws {
            let configuration = await loadConfiguration(store.flags)
            let texts = ReceivedTexts.texts(in: ProcessInfo.processInfo.environment)
            do {
                let hearthStore = try AdminStore.open(configuration)
                defer { try? hearthStore.close() }
                FileHandle.standardOutput.write(Data(try await ReceivedTexts.take(texts, store: hearthStore).utf8))
            } catch {
                fail("\(error)")
            }
        }
    }
}
