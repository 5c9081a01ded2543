import Foundation
import HearthCore
import HearthHubTestSupport
@testable import HearthKit
import HearthTestSupport
import Testing

/// The mirror on its own, with no hub: local edits, the outbox, observations.
@Suite struct HearthMirrorTests {
    static func connectedMirror(path: String? = nil) async throws -> HearthMirror {
        let mirror = try path.map(HearthMirror.init(path:)) ?? HearthMirror.inMemory()
        try await mirror.setIdentity(deviceId: UUID().uuidString.lowercased(), personId: UUID().uuidString.lowercased(), timeZone: "Europe/Warsaw")
        return mirror
    }

    @Test func anObservationEmitsTheCurrentNotesAndEveryLocalEdit() async throws {
        let directory = try TemporaryDirectory()
        // Both kinds of mirror: a file (a pool of connections) and memory (one queue).
        for path in [directory.url.appendingPathComponent("mirror.sqlite").path, nil] {
            let mirror = try await Self.connectedMirror(path: path)
            // The edits start once the observation has said what is there:
            // a fixed pause before them was too short beside a busy build.
            let (started, start) = AsyncStream.makeStream(of: Void.self)
            let watcher = Task { () -> [[String]] in
                var seen: [[String]] = []
                for try await notes in mirror.observeNotes() {
                    seen.append(notes.map(\.displayTitle))
                    start.yield()
                    if seen.count == 3 { break }
                }
                return seen
            }
            for await _ in started { break }
            let id = try await mirror.createNote(text: "Kupić mleko\ni chleb")
            try await mirror.setNoteText(id: id, to: "Kupić masło\ni chleb")
            let deadline = Task {
                try await Task.sleep(for: .seconds(10))
                watcher.cancel()
            }
            try await expectEqual(watcher.value, [[], ["Kupić mleko"], ["Kupić masło"]])
            deadline.cancel()
            // The note, then two batches of typing, wait for the hub.
            try await expectEqual(mirror.pendingCount(), 3)
        }
    }

    @Test func settingANotesTextTypesOnlyWhatChanged() async throws {
        let mirror = try await Self.connectedMirror()
        let id = try await mirror.createNote(text: "Zażółć gęślą jaźń 🦔")
        try await mirror.setNoteText(id: id, to: "Zażółć żółtą jaźń 🦔")
        try await expectEqual(mirror.note(id: id)?.text, "Zażółć żółtą jaźń 🦔")
        let (entries, _) = try await mirror.takeOutbox(limit: 10)
        let last = try #require(entries.last.flatMap(HearthMirror.operations(of:)))
        // "gęśl" out and "żółt" in, not the whole text again.
        expectEqual(last.count, 2)
        guard case .insertion(let insertion)? = last.last else { Issue.record("no insertion: \(last)"); return }
        expectEqual(insertion.text, "żółt")
    }

    @Test func whatTheHubWouldRefuseIsRefusedBeforeItIsQueued() async throws {
        let mirror = try await Self.connectedMirror()
        let id = try await mirror.createNote(title: "Lista")
        await #expect(throws: HearthKitError.self) { try await mirror.updateNote(id: id, title: "bad\u{7}title") }
        await #expect(throws: HearthKitError.self) { try await mirror.editNoteText(id: id, at: 5, inserting: "x") }
        await #expect(throws: HearthKitError.notFound("That note")) { try await mirror.updateNote(id: UUID(), pinned: true) }
        await #expect(throws: HearthKitError.self) { try await mirror.record(doseKey: "x/2026-11-23T08:00", status: .planned) }
        try await expectEqual(mirror.pendingCount(), 1)
    }
}
