import Foundation
import HearthCore
import HearthStore
import Hummingbird

/// A person's screen kept on the hub: `/people/{id}/panel` (her tiles),
/// `/people/{id}/display` (text size, theme, language, speaking rate),
/// `/people/{id}/scores` (her best score in each game) and
/// `/games/{game}/scores` (a finished game of the caller's). The store
/// decides who may, on the rows its read or write sees: the person, the
/// caregivers who look after her, an admin; anyone else hears of no such person.
struct ScreenController {
    let store: HearthStore

    struct PanelBody: ResponseEncodable {
        struct Tile: Codable {
            var position: Int
            var gadget: String
        }
        var personId: String
        var tiles: [Tile]
        /// False while nobody has arranged it: the standard panel is shown.
        var arranged: Bool

        init(_ arranged: ArrangedPanel, of personId: UUID) {
            self.personId = personId.text
            tiles = arranged.panel.tiles.map { Tile(position: $0.position, gadget: $0.gadget.rawValue) }
            self.arranged = arranged.arranged
        }
    }

    /// `PUT /people/{id}/panel`: every tile, in any order; each field is checked by `Panel.validated`.
    struct PanelRequest: Decodable {
        struct Tile: Decodable {
            /// Read as any number, so 1.5 is the panel's rule broken (422), not unreadable JSON.
            var position: Double?
            var gadget: String?
        }
        var tiles: [Tile]
    }

    struct DisplayBody: ResponseEncodable {
        var personId: String
        var textSize: String
        var theme: String
        var language: String
        var speechRate: String
        /// False while nobody has chosen: the standard settings for their role.
        var chosen: Bool

        init(_ chosen: ChosenDisplaySettings, of personId: UUID) {
            self.personId = personId.text
            textSize = chosen.settings.textSize.rawValue
            theme = chosen.settings.theme.rawValue
            language = chosen.settings.language.rawValue
            speechRate = chosen.settings.speechRate.rawValue
            self.chosen = chosen.chosen
        }
    }

    struct DisplayRequest: Decodable {
        var textSize: String?
        var theme: String?
        var language: String?
        var speechRate: String?
    }

    struct ScoreBody: ResponseEncodable {
        var game: String
        var best: Int
        var lastScore: Int
        var lastPlayedAt: Date
        var gamesPlayed: Int
        /// Only in the answer to a finished game: whether it beat the best.
        var newBest: Bool?

        init(_ record: GameScore, newBest: Bool? = nil) {
            game = record.game.rawValue
            best = record.best
            lastScore = record.lastScore
            lastPlayedAt = record.lastPlayedAt
            gamesPlayed = record.gamesPlayed
            self.newBest = newBest
        }
    }

    struct ScoresBody: ResponseEncodable {
        var personId: String
        var scores: [ScoreBody]
    }

    struct ScoreRequest: Decodable {
        /// Read as any number, so 2.5 is refused as a score (422), not as unreadable JSON.
        var score: Double?
    }

    /// A number sent where a whole one belongs, or nil (the domain's check
    /// then names the field); far past any rule's range is nil too.
    static func whole(_ number: Double?) -> Int? {
        guard let number, number.rounded() == number, abs(number) <= 1e9 else { return nil }
        return Int(number)
    }

    func addRoutes(to api: RouterGroup<HearthRequestContext>) {
        let people = api.group(.people)
        people.get("{id}/panel") { _, context -> PanelBody in
            let id = try PeopleController.person(in: context)
            return PanelBody(try await store.panel(of: id, visibleTo: try context.requirePaired()), of: id)
        }
        people.put("{id}/panel") { request, context -> PanelBody in
            let id = try PeopleController.person(in: context)
            let actor = try context.requirePaired()
            let body = try await request.decode(as: PanelRequest.self, context: context)
            let panel = try Panel.validated(body.tiles.map { Panel.RequestedTile(position: Self.whole($0.position), gadget: $0.gadget) })
            return PanelBody(try await store.arrangePanel(of: id, panel, as: actor, by: context.caller.origin), of: id)
        }
        people.get("{id}/display") { _, context -> DisplayBody in
            let id = try PeopleController.person(in: context)
            return DisplayBody(try await store.displaySettings(of: id, visibleTo: try context.requirePaired()), of: id)
        }
        people.put("{id}/display") { request, context -> DisplayBody in
            let id = try PeopleController.person(in: context)
            let actor = try context.requirePaired()
            let body = try await request.decode(as: DisplayRequest.self, context: context)
            let settings = try DisplaySettings.validated(textSize: body.textSize, theme: body.theme, language: body.language,
                                                         speechRate: body.speechRate)
            return DisplayBody(try await store.setDisplaySettings(of: id, settings, as: actor, by: context.caller.origin), of: id)
        }
        people.get("{id}/scores") { _, context -> ScoresBody in
            let id = try PeopleController.person(in: context)
            let scores = try await store.gameScores(of: id, visibleTo: try context.requirePaired())
            return ScoresBody(personId: id.text, scores: scores.map { ScoreBody($0) })
        }
        api.group(.games).post("{game}/scores") { request, context -> EditedResponse<ScoreBody> in
            let actor = try context.requirePaired()
            let game = try Game.validated(context.parameters.get("game") ?? "")
            let body = try await request.decode(as: ScoreRequest.self, context: context)
            let kept = try await store.keepScore(Self.whole(body.score), in: game, as: actor, by: context.caller.origin)
            return EditedResponse(status: .created, headers: [.location: APIPath.link(.people, actor.personId, "scores")],
                                  response: ScoreBody(kept.record, newBest: kept.newBest))
        }
    }
}
