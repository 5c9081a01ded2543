import Foundation
import HearthCore
import HearthStore
import HearthTestSupport
import Testing

/// A senior's screen kept on the hub: her panel, her display settings and
/// her games' best scores, through the routes, with who may and what bad
/// input gets.
@Suite struct ScreenRoutesTests {
    /// The tiles of a panel reply as "position:gadget", in order.
    static func tiles(_ reply: CareHousehold.Reply) -> [String] {
        guard case .array(let items)? = reply["tiles"] else { return [] }
        return items.map { tile in
            let position = tile.field("position").flatMap { if case .number(let n) = $0 { Int(n) } else { nil } } ?? 0
            return "\(position):\(text(tile.field("gadget")) ?? "?")"
        }
    }

    static func text(_ value: JSONValue?) -> String? {
        if case .string(let text)? = value { text } else { nil }
    }

    @Test func aCaregiverArrangesHerSeniorsPanelAndTheSeniorSeesIt() async throws {
        try await CareHousehold.with { home in
            let panel = "/api/v1/people/\(home.seniorId.text)/panel"
            // Given: nobody has arranged it, so the standard panel is shown.
            let first = try await home.call(.get, panel, as: home.senior)
            expectEqual(first.status, .ok)
            expectEqual(first["arranged"], .bool(false))
            expectEqual(Self.tiles(first).first, "1:next-dose")

            // When: Ania puts the clock first, four tiles in all, in any order.
            let put = try await home.call(.put, panel, as: home.caregiver, body: """
                {"tiles": [{"position": 4, "gadget": "wordle"}, {"position": 1, "gadget": "clock"},
                           {"position": 2, "gadget": "next-dose"}, {"position": 6, "gadget": "pinned-note"}]}
                """)
            expectEqual(put.status, .ok, "\(String(describing: put.body))")

            // Then: Babcia's devices read it, in the order of the places.
            let mine = try await home.call(.get, panel, as: home.senior)
            expectEqual(mine["arranged"], .bool(true))
            expectEqual(Self.tiles(mine), ["1:clock", "2:next-dose", "4:wordle", "6:pinned-note"])
            // And the admin may arrange it too.
            let admin = try await home.call(.put, panel, body: #"{"tiles": [{"position": 1, "gadget": "sudoku"}]}"#)
            expectEqual(admin.status, .ok)
            expectEqual(Self.tiles(try await home.call(.get, panel, as: home.senior)), ["1:sudoku"])
        }
    }

    @Test func someoneWhoDoesNotLookAfterHerHearsOfNoSuchPerson() async throws {
        try await CareHousehold.with { home in
            let panel = "/api/v1/people/\(home.seniorId.text)/panel"
            let body = #"{"tiles": [{"position": 1, "gadget": "clock"}]}"#
            let refused = [
                try await home.call(.get, panel, as: home.stranger),
                try await home.call(.put, panel, as: home.stranger, body: body),
                try await home.call(.get, "/api/v1/people/\(home.seniorId.text)/display", as: home.stranger),
                try await home.call(.get, "/api/v1/people/\(home.seniorId.text)/scores", as: home.stranger),
                // A senior arranges her own screen, not her caregiver's.
                try await home.call(.put, "/api/v1/people/\(home.caregiverId.text)/panel", as: home.senior, body: body),
                try await home.call(.get, "/api/v1/people/\(UUID().text)/panel"),
            ]
            expectEqual(refused.map(\.status), Array(repeating: .notFound, count: refused.count))
            // Nothing was arranged by any of it.
            let after = try await home.call(.get, panel, as: home.senior)
            expectEqual(after["arranged"], .bool(false))
        }
    }

    @Test func aPanelThatBreaksTheRulesIsRefusedNamingTheFieldAndChangesNothing() async throws {
        try await CareHousehold.with { home in
            let panel = "/api/v1/people/\(home.seniorId.text)/panel"
            let kept = #"{"tiles": [{"position": 1, "gadget": "clock"}, {"position": 2, "gadget": "people"}]}"#
            try await expectEqual(home.call(.put, panel, as: home.caregiver, body: kept).status, .ok)
            let seven = (1...7).map { #"{"position": \#(min($0, 6)), "gadget": "\#(Gadget.allCases[$0].rawValue)"}"# }.joined(separator: ",")
            let cases: [(String, String)] = [
                ("[\(seven)]", "tiles"),
                ("[]", "tiles"),
                (#"[{"position": 0, "gadget": "clock"}]"#, "tiles.0.position"),
                (#"[{"position": 7, "gadget": "clock"}]"#, "tiles.0.position"),
                (#"[{"position": 1, "gadget": "clock"}, {"position": 2, "gadget": "clock"}]"#, "tiles.1.gadget"),
                (#"[{"position": 1, "gadget": "clock"}, {"position": 1, "gadget": "notes"}]"#, "tiles.1.position"),
                (#"[{"position": 1, "gadget": "television"}]"#, "tiles.0.gadget"),
                (#"[{"gadget": "clock"}]"#, "tiles.0.position"),
                (#"[{"position": 1.5, "gadget": "clock"}]"#, "tiles.0.position"),
            ]
            for (tiles, field) in cases {
                let reply = try await home.call(.put, panel, as: home.caregiver, body: #"{"tiles": \#(tiles)}"#)
                expectEqual(reply.status, .unprocessableContent, "\(tiles)")
                expectEqual(reply.invalidFields, [field], "\(tiles): \(String(describing: reply.body))")
            }
            expectEqual(Self.tiles(try await home.call(.get, panel, as: home.senior)), ["1:clock", "2:people"])
        }
    }

    @Test func displaySettingsAreKeptPerPersonAndCheckedAgainstTheirLists() async throws {
        try await CareHousehold.with { home in
            let display = "/api/v1/people/\(home.seniorId.text)/display"
            // Given: a senior starts with large text read a little slower.
            let first = try await home.call(.get, display, as: home.senior)
            expectEqual(first["chosen"], .bool(false))
            expectEqual(first["textSize"], "large")
            expectEqual(first["speechRate"], "slow")
            // When: Ania sets extra-large text and a dark theme from her phone.
            let put = try await home.call(.put, display, as: home.caregiver, body: """
                {"textSize": "x-large", "theme": "dark", "language": "pl", "speechRate": "slower"}
                """)
            expectEqual(put.status, .ok, "\(String(describing: put.body))")
            // Then: Babcia's devices read them.
            let mine = try await home.call(.get, display, as: home.senior)
            expectEqual(mine["chosen"], .bool(true))
            expectEqual(mine["textSize"], "x-large")
            expectEqual(mine["theme"], "dark")
            expectEqual(mine["language"], "pl")
            // A setting outside its list, or missing, is 422 naming it; nothing changes.
            for (body, field) in [
                (#"{"textSize": "huge", "theme": "dark", "language": "pl", "speechRate": "slow"}"#, "textSize"),
                (#"{"textSize": "large", "theme": "pink", "language": "pl", "speechRate": "slow"}"#, "theme"),
                (#"{"textSize": "large", "theme": "dark", "language": "de", "speechRate": "slow"}"#, "language"),
                (#"{"textSize": "large", "theme": "dark", "language": "pl", "speechRate": "warp"}"#, "speechRate"),
                (#"{"textSize": "large", "theme": "dark", "language": "pl"}"#, "speechRate"),
            ] {
                let reply = try await home.call(.put, display, as: home.senior, body: body)
                expectEqual(reply.status, .unprocessableContent)
                expectEqual(reply.invalidFields, [field], "\(body)")
            }
            try await expectEqual(home.call(.get, display, as: home.senior)["textSize"], "x-large")
        }
    }

    @Test func aLowerScoreNeverReplacesTheBestAndCaregiversSeeWhenSheLastPlayed() async throws {
        try await CareHousehold.with { home in
            let scores = "/api/v1/people/\(home.seniorId.text)/scores"
            let first = try await home.call(.post, "/api/v1/games/memory/scores", as: home.senior, body: #"{"score": 80}"#)
            expectEqual(first.status, .created)
            expectEqual(first["best"], .number(80))
            expectEqual(first["newBest"], .bool(true))
            let lower = try await home.call(.post, "/api/v1/games/memory/scores", as: home.senior, body: #"{"score": 30}"#)
            expectEqual(lower["best"], .number(80))
            expectEqual(lower["lastScore"], .number(30))
            expectEqual(lower["newBest"], .bool(false))
            let higher = try await home.call(.post, "/api/v1/games/memory/scores", as: home.senior, body: #"{"score": 95}"#)
            expectEqual(higher["best"], .number(95))

            // Her caregiver sees one entry per game: the best, when she last played, how many games.
            let seen = try await home.call(.get, scores, as: home.caregiver)
            expectEqual(seen.status, .ok)
            guard case .array(let entries)? = seen["scores"] else { Issue.record("no scores"); return }
            expectEqual(entries.count, 1)
            expectEqual(entries.first?.field("best"), .number(95))
            expectEqual(entries.first?.field("gamesPlayed"), .number(3))
            #expect(Self.text(entries.first?.field("lastPlayedAt")) != nil)

            // Bad scores and unknown games are 422 naming the field; the best stays.
            for (game, body, field) in [("memory", #"{"score": 0}"#, "score"), ("memory", #"{"score": -5}"#, "score"),
                                        ("memory", #"{"score": 2.5}"#, "score"), ("memory", "{}", "score"),
                                        ("chess", #"{"score": 10}"#, "game")] {
                let reply = try await home.call(.post, "/api/v1/games/\(game)/scores", as: home.senior, body: body)
                expectEqual(reply.status, .unprocessableContent, "\(game) \(body)")
                expectEqual(reply.invalidFields, [field], "\(game) \(body): \(String(describing: reply.body))")
            }
            let after = try await home.call(.get, scores, as: home.senior)
            guard case .array(let kept)? = after["scores"] else { Issue.record("no scores"); return }
            expectEqual(kept.first?.field("best"), .number(95))
            expectEqual(kept.first?.field("gamesPlayed"), .number(3))
        }
    }

    @Test func tilesSettingsAndScoresTravelTheChangeLogToThoseWhoMaySeeThem() async throws {
        try await CareHousehold.with { home in
            _ = try await home.call(.put, "/api/v1/people/\(home.seniorId.text)/panel", as: home.caregiver,
                                    body: #"{"tiles": [{"position": 1, "gadget": "clock"}]}"#)
            _ = try await home.call(.put, "/api/v1/people/\(home.seniorId.text)/display", as: home.caregiver,
                                    body: #"{"textSize": "x-large", "theme": "light", "language": "en", "speechRate": "slow"}"#)
            _ = try await home.call(.post, "/api/v1/games/wordle/scores", as: home.senior, body: #"{"score": 40}"#)
            // The same panel again tells no one.
            _ = try await home.call(.put, "/api/v1/people/\(home.seniorId.text)/panel", as: home.senior,
                                    body: #"{"tiles": [{"position": 1, "gadget": "clock"}]}"#)
            let logged = try await home.store.changes(after: 0, limit: 1000).filter { [.panel, .displaySettings, .gameScore].contains($0.entity) }
            expectEqual(logged.map(\.entity), [.panel, .displaySettings, .gameScore])

            let senior = try #require(try await home.store.actor(of: home.seniorId))
            let caregiver = try #require(try await home.store.actor(of: home.caregiverId))
            let strangerId = try #require(try await home.store.person(named: "Obcy")?.id)
            let stranger = try #require(try await home.store.actor(of: strangerId))
            for change in logged {
                #expect(PermissionPolicy.mayHear(senior, change.audience))
                #expect(PermissionPolicy.mayHear(caregiver, change.audience))
                #expect(!PermissionPolicy.mayHear(stranger, change.audience), "\(change.entity)")
            }
            // A device's snapshot carries them to the senior's and her caregiver's, not the stranger's.
            for (token, sees) in [(home.senior, true), (home.caregiver, true), (home.stranger, false)] {
                let snapshot = try await home.call(.get, "/api/v1/sync/snapshot", as: token)
                let entities = SyncRouteTests.pulled(snapshot, "entities").compactMap { Self.text($0.field("entity")) }
                expectEqual(entities.contains("panel"), sees)
                expectEqual(entities.contains("displaySettings"), sees)
                expectEqual(entities.contains("gameScore"), sees)
            }
        }
    }
}
