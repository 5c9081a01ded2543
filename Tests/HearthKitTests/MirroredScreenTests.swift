import Foundation
import HearthCore
@testable import HearthKit
import Testing

/// A senior's screen reaches her app's mirror through sync: the panel a
/// caregiver arranged, the display settings she set, the best scores.
@Suite struct MirroredScreenTests {
    @Test func aPanelArrangedOnTheWebReachesTheSeniorsAppOnItsNextSync() async throws {
        try await LoopbackHousehold.with { home in
            let babcia = try HearthKitSyncTests.client(home, home.senior)
            try await babcia.sync()
            // Given: nothing arranged yet, the app shows the standard panel.
            let before = try await babcia.mirror.screen(of: home.seniorId)
            #expect(before.arranged == false)
            #expect(before.panel == .standard)
            #expect(before.display == nil)

            // When: Ania arranges it and sets large text; Babcia finishes a game.
            let senior = home.seniorId.uuidString.lowercased()
            _ = try await home.call("PUT", "/api/v1/people/\(senior)/panel", as: home.caregiver,
                                    body: #"{"tiles": [{"position": 2, "gadget": "clock"}, {"position": 1, "gadget": "sudoku"}]}"#)
            _ = try await home.call("PUT", "/api/v1/people/\(senior)/display", as: home.caregiver,
                                    body: #"{"textSize": "x-large", "theme": "dark", "language": "pl", "speechRate": "slower"}"#)
            _ = try await home.call("POST", "/api/v1/games/sudoku/scores", as: home.senior, body: #"{"score": 120}"#, expect: 201)
            try await babcia.sync()

            // Then: her mirror has all three.
            let after = try await babcia.mirror.screen(of: home.seniorId)
            #expect(after.arranged)
            #expect(after.panel.tiles.map(\.gadget) == [.sudoku, .clock])
            #expect(after.display?.textSize == .extraLarge)
            #expect(after.display?.speechRate == .slower)
            #expect(after.scores.map(\.best) == [120])
            #expect(after.scores.first?.game == .sudoku)
        }
    }
}

/// What a caregiver's app keeps follows whom she looks after: the hub
/// starts her mirror again from a snapshot when that changes.
@Suite struct CareCircleMirrorTests {
    @Test func aCaregiverUnlinkedFromTheSeniorKeepsNothingOfHersAndLinkedAgainGetsItAll() async throws {
        try await LoopbackHousehold.with { home in
            let medication = try await home.addMedication(name: "Metformina", time: "08:00")
            let ania = try HearthKitSyncTests.client(home, home.caregiver)
            try await ania.sync()
            #expect(try await ania.mirror.medications().map(\.id) == [medication])

            // When: the admin unlinks her from Babcia; nothing of Babcia's changes after.
            let anias = try #require(try await home.store.person(named: "Ania")?.id)
            try await home.store.removeCareLink(caregiver: anias, senior: home.seniorId, as: .hubTerminal, by: "test")
            try await ania.sync()
            // Then: her app holds none of Babcia's medicines.
            #expect(try await ania.mirror.medications().isEmpty)

            // Linked again: what was there all along arrives, unchanged since.
            try await home.store.link(caregiver: anias, senior: home.seniorId, as: .hubTerminal, by: "test")
            try await ania.sync()
            #expect(try await ania.mirror.medications().map(\.id) == [medication])
        }
    }
}
