import Foundation
import HearthCore
import HearthHubTestSupport
import HearthTestSupport
import Testing

/// The example app, as its binary, against a live hub: lists today's doses,
/// records one, writes a note offline and syncs it later.
@Suite struct HearthCLITests {
    /// Runs the built `hearth-cli` (beside the test binary); its output and exit status.
    static func run(_ arguments: [String], hub: String, token: String, mirror: String) throws -> (output: String, status: Int32) {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("hearth-cli")
        let process = Process()
        process.executableURL = FileManager.default.fileExists(atPath: binary.path) ? binary
            : URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(".build/debug/hearth-cli")
        process.arguments = arguments + ["--hub", hub, "--token", token, "--mirror", mirror]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (String(decoding: data, as: UTF8.self), process.terminationStatus)
    }

    @Test func listsTodayRecordsADoseAndWritesANoteOffline() async throws {
        try await LoopbackHousehold.with { home in
            let soon = home.inAnHour()
            let medicationId = try await home.addMedication(name: "Bisoprolol", stock: 10, time: soon.time)
            let directory = try TemporaryDirectory()
            let mirror = directory.url.appendingPathComponent("cli.sqlite").path
            let hub = home.baseURL.absoluteString

            let today = try Self.run(["today"], hub: hub, token: home.caregiver, mirror: mirror)
            expectEqual(today.status, 0, "\(today.output)")
            if soon.date == LocalDate(Date(), in: home.zone) {
                #expect(today.output.contains("1. \(soon.time)  Bisoprolol × 1  planned"), "\(today.output)")
                let taken = try Self.run(["take", "1"], hub: hub, token: home.caregiver, mirror: mirror)
                #expect(taken.output.contains("Bisoprolol at \(soon.time): taken."), "\(taken.output)")
                try await expectEqual(home.medication(medicationId).field("stock"), .number(9))
            }

            // The hub away: the note is kept on the device, with one plain line saying so.
            let away = try Self.run(["add-note", "--text", "Zadzwonić do lekarza", "--shared"], hub: "http://127.0.0.1:1/", token: home.caregiver, mirror: mirror)
            expectEqual(away.status, 0)
            #expect(away.output.contains("Not synced") && away.output.contains("2 change(s) wait on this device"), "\(away.output)")
            let synced = try Self.run(["sync"], hub: hub, token: home.caregiver, mirror: mirror)
            #expect(synced.output.hasPrefix("Synced: 2 pushed"), "the note and its text: \(synced.output)")
            let notes = try await home.call("GET", "/api/v1/notes", as: home.senior)
            guard case .array(let listed) = notes else { Issue.record("not a list: \(notes)"); return }
            #expect(listed.contains { $0.field("displayTitle") == "Zadzwonić do lekarza" }, "\(notes)")

            // A value that begins with "-" is still a value: a token may, and so may a list item.
            let dashed = try Self.run(["add-note", "--text", "- chleb", "--shared"], hub: hub, token: home.caregiver, mirror: mirror)
            expectEqual(dashed.status, 0, "\(dashed.output)")
            let listedAgain = try await home.call("GET", "/api/v1/notes", as: home.senior)
            guard case .array(let notesNow) = listedAgain else { Issue.record("not a list: \(listedAgain)"); return }
            #expect(notesNow.contains { $0.field("displayTitle") == "- chleb" }, "\(listedAgain)")
            let strange = try Self.run(["sync"], hub: hub, token: "-not-a-token", mirror: mirror)
            #expect(strange.status != 0, "asked to sync and refused")
            #expect(!strange.output.contains("Missing value") && strange.output.contains("401"), "\(strange.output)")

            // Bad input gets one plain line and a failing status.
            let wrong = try Self.run(["take", "7"], hub: hub, token: home.caregiver, mirror: mirror)
            #expect(wrong.status != 0)
            #expect(wrong.output.contains("There is no dose 7 today"), "\(wrong.output)")
        }
    }
}
