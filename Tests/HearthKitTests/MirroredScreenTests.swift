import Foundation
import HearthCore
@testable import HearthKit
import HearthTestSupport
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
            expectEqual(before.arranged, false)
            expectEqual(before.panel, .standard)
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
            expectEqual(after.panel.tiles.map(\.gadget), [.sudoku, .clock])
            expectEqual(after.display?.textSize, .extraLarge)
            expectEqual(after.display?.speechRate, .slower)
            expectEqual(after.scores.map(\.best), [120])
            expectEqual(after.scores.first?.game, .sudoku)
        }
    }
}
