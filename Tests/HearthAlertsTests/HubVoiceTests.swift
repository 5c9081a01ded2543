import Foundation
@testable import HearthAlerts
import HearthCore
import HearthTestSupport
import Testing

/// When the hub speaks: what is news in an alert's change, and quiet hours.
struct HubVoiceTests {
    func alert(_ kind: CareAlert.Kind, repeats: Int = 0) -> CareAlert {
        CareAlert(kind: kind, audience: .senior, personId: UUID.random(), raisedBy: "hub", raisedAt: Date(), repeats: repeats)
    }

    @Test func aReminderIsSaidAgainEachTimeItRepeatsAndAnSOSWhenAnswered() {
        var heard = SpokenAlerts()
        var said: [Bool] = []
        var due = alert(.doseDue)
        said.append(heard.isNews(due))
        said.append(heard.isNews(due))  // the same change twice is said once
        due.repeats = 1
        said.append(heard.isNews(due))
        due.details = ["personName": "Zosia"]
        said.append(heard.isNews(due))  // a change that is no repeat says nothing
        due.acknowledgedAt = Date()
        said.append(heard.isNews(due))
        var sos = alert(.sos)
        said.append(heard.isNews(sos))
        sos.respondedAt = Date()
        said.append(heard.isNews(sos))
        said.append(heard.isNews(sos))
        expectEqual(said, [true, false, true, false, false, true, true, false])
    }

    @Test func anSOSItsSeniorCancelledIsSaidOnceAndOnlyIfItsCallWasSaid() {
        var heard = SpokenAlerts()
        var said: [Bool] = []
        var sos = alert(.sos)
        said.append(heard.isNews(sos))
        sos.acknowledgedAt = Date()
        sos.acknowledgedBy = sos.personId
        said.append(heard.isNews(sos))  // the household hears that all is well
        said.append(heard.isNews(sos))  // once
        var closedByACarer = alert(.sos)
        said.append(heard.isNews(closedByACarer))
        closedByACarer.acknowledgedAt = Date()
        closedByACarer.acknowledgedBy = UUID.random()
        said.append(heard.isNews(closedByACarer))  // closed by someone else: nothing to say
        var neverSaid = alert(.sos)
        neverSaid.acknowledgedAt = Date()
        neverSaid.acknowledgedBy = neverSaid.personId
        said.append(heard.isNews(neverSaid))  // a cancelling heard before its call (a replay) says nothing
        expectEqual(said, [true, true, false, true, false, false])
    }

    @Test func quietHoursMayCrossMidnightAndAreReadFromHoursAndMinutes() throws {
        let warsaw = try #require(TimeZone(identifier: "Europe/Warsaw"))
        let night = try #require(QuietHours("22:00-07:00"))
        func at(_ text: String) throws -> Date { try #require(ISOTime.date(from: text)) }
        #expect(night.contains(try at("2026-11-25T21:30:00Z"), in: warsaw))   // 22:30 in Warsaw
        #expect(night.contains(try at("2026-11-26T05:59:00Z"), in: warsaw))   // 06:59
        #expect(!night.contains(try at("2026-11-26T06:00:00Z"), in: warsaw))  // 07:00
        #expect(!night.contains(try at("2026-11-25T12:00:00Z"), in: warsaw))
        let lunch = try #require(QuietHours("13:00-14:30"))
        let (during, after) = (try at("2026-11-25T12:10:00Z"), try at("2026-11-25T13:30:00Z"))  // 13:10 and 14:30 in Warsaw
        #expect(lunch.contains(during, in: warsaw) && !lunch.contains(after, in: warsaw))
        for wrong in ["", "22:00", "22:00-22:00", "25:00-07:00", "late-early"] { #expect(QuietHours(wrong) == nil, "\(wrong)") }
        #expect(SpeechSettings.isVoiceName("pl+f3") && SpeechSettings.isVoiceName("en-gb"))
        #expect(!SpeechSettings.isVoiceName("-w /tmp/x") && !SpeechSettings.isVoiceName("pl; rm"))
    }
}

/// The speaker's queue and the speaker itself, with stand-in programs on PATH.
struct SpeakerTests {
    func line(_ text: String, urgent: Bool = false) -> HubVoice.Line {
        HubVoice.Line(text: text, voice: "en", alertId: nil, messageId: nil, isUrgent: urgent)
    }

    @Test func aBacklogDropsTheOldestDoseButNeverAnSOS() async {
        let waiting = WaitingLines(limit: 2)
        waiting.add(line("SOS", urgent: true))
        for dose in 1...4 { waiting.add(line("dose \(dose)")) }
        waiting.add(line("SOS answered", urgent: true))
        var said: [String] = []
        waiting.finish()
        while let next = await waiting.next() { said.append(next.text) }
        expectEqual(said, ["SOS", "SOS answered"])

        let calm = WaitingLines(limit: 3)
        for dose in 1...5 { calm.add(line("dose \(dose)")) }
        calm.finish()
        said = []
        while let next = await calm.next() { said.append(next.text) }
        expectEqual(said, ["dose 3", "dose 4", "dose 5"])
    }

    @Test func aLineAddedWhileTheSpeakerWaitsIsSaidAtOnce() async {
        let waiting = WaitingLines()
        async let next = waiting.next()
        try? await Task.sleep(for: .milliseconds(50))
        waiting.add(line("It is time for Metformin"))
        await expectEqual(next?.text, "It is time for Metformin")
    }

    @Test func aSynthesizerThatFailsAtOnceIsAProblemToReportNotACrash() async throws {
        let programs = try TemporaryDirectory()
        // espeak-ng that does not read its words (a voice it has no data for), and an aplay that plays nothing.
        for (name, script) in [("espeak-ng", "#!/bin/sh\nexit 3\n"), ("aplay", "#!/bin/sh\ncat > /dev/null\n")] {
            let file = programs.url.appendingPathComponent(name)
            try Data(script.utf8).write(to: file)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: file.path)
        }
        let speaker = Speaker(device: "default", environment: ["PATH": programs.url.path])
        // Longer than a pipe holds, so the write meets the closed pipe.
        let words = String(repeating: "Zosia, it is time for Metformin. ", count: 8_000)
        await #expect(throws: SpeechProblem.failed("espeak-ng exited with 3")) {
            try await speaker.say(words, voice: "xx")
        }
        let none = Speaker(device: "default", environment: ["PATH": programs.url.appendingPathComponent("nothing").path])
        await #expect(throws: SpeechProblem.missing(program: "espeak-ng")) { try await none.say("Hello", voice: "en") }
    }
}
