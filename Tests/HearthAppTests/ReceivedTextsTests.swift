import Foundation
@testable import HearthApp
import HearthCore
import HearthStore
import HearthTestSupport
import Testing

/// `hearth sms received` reads what gammu-smsd's RunOnReceive names in its
/// environment, and says what became of each text without its words.
@Suite struct ReceivedTextsTests {
    @Test func theTextsAreReadAsGammuNamesThemAndAFloodIsCut() {
        let texts = ReceivedTexts.texts(in: [
            "SMS_MESSAGES": "3", "SMS_1_NUMBER": "+48600100200", "SMS_1_TEXT": "1 4821",
            // A part with no sender is nobody's reply.
            "SMS_2_TEXT": "2 4821",
            "SMS_3_NUMBER": "+48600100300", "SMS_3_TEXT": "Jadę!",
        ])
        expectEqual(texts, [.init(number: "+48600100200", text: "1 4821"), .init(number: "+48600100300", text: "Jadę!")])
        #expect(ReceivedTexts.texts(in: [:]).isEmpty)
        #expect(ReceivedTexts.texts(in: ["SMS_MESSAGES": "-1"]).isEmpty)
        var flood = ["SMS_MESSAGES": "100000"]
        for index in 1...60 { flood["SMS_\(index)_NUMBER"] = "+48600100\(index)" }
        expectEqual(ReceivedTexts.texts(in: flood).count, 50)
    }

    @Test func eachTextIsAccountedForInOneLineThatNeverRepeatsItsWords() async throws {
        let directory = try TemporaryDirectory()
        let store = try HearthStore(directory: directory.url)
        defer { try? store.close() }
        try await store.ensureHousehold(name: "Home", timeZone: "Europe/Warsaw")
        let said = try await ReceivedTexts.take([.init(number: "+48 600 100 200", text: "1 4821"),
                                                 .init(number: "+48600100200", text: "Kocham was, mój PIN to 1234")], store: store)
        #expect(said == """
            text from +48600100200: no open alert with that code for that number, ignored
            text from +48600100200: not a reply to an alert, ignored

            """)
        #expect(try await ReceivedTexts.take([], store: store).contains("SMS_MESSAGES"))
    }
}
