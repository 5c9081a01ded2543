import ArgumentParser
import Foundation
import HearthApp

struct Say: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Say a line through the hub's speaker, as it says alerts (checks the speaker over SSH).")

    @Argument(help: "The words to say.")
    var words: [String]

    @Option(help: "An espeak-ng voice such as pl or en-gb (default: speech.voice, else the household's language).")
    var voice: String?

    @OptionGroup var store: StoreOptions

    func run() async throws {
        let configuration = await loadConfiguration(store.flags)
        do {
            let used = try await SpokenLine.say(words.joined(separator: " "), voice: voice, configuration: configuration)
            FileHandle.standardOutput.write(Data("said it with voice \(used) on \(configuration.speech.device)\n".utf8))
        } catch {
            fail("cannot speak: \(error)")
        }
    }
}
