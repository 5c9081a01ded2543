import Foundation
import HearthCore

/// A person's screen as this device has it from sync: the panel their
/// device opens on, how it looks and sounds, and their best game scores.
/// An app draws a senior's panel from it offline and follows a caregiver's
/// rearranging on the next sync.
public struct MirroredScreen: Sendable, Hashable {
    public var personId: UUID
    /// The standard panel while nobody has arranged one (`arranged` false).
    public var panel: Panel
    public var arranged: Bool
    /// Nil while nobody has chosen: the app keeps its own defaults.
    public var display: DisplaySettings?
    /// One per game the person finished, by game.
    public var scores: [GameScore]

    init(personId: UUID, panelFields: [String: JSONValue]?, displayFields: [String: JSONValue]?, scoreFields: [[String: JSONValue]]) {
        self.personId = personId
        // A panel a newer hub arranged with a gadget this library does not know keeps the ones it knows.
        let requested = (panelFields?["tiles"]?.array ?? []).map { tile in
            Panel.RequestedTile(position: tile.field("position")?.double.map { Int($0) }, gadget: tile.field("gadget")?.string)
        }.filter { $0.gadget.flatMap(Gadget.init(rawValue:)) != nil }
        if let arrangedPanel = try? Panel.validated(requested) {
            panel = arrangedPanel
            arranged = true
        } else {
            panel = .standard
            arranged = false
        }
        display = displayFields.flatMap { fields in
            try? DisplaySettings.validated(textSize: fields["textSize"]?.string, theme: fields["theme"]?.string,
                                           language: fields["language"]?.string, speechRate: fields["speechRate"]?.string)
        }
        scores = scoreFields.compactMap { fields in
            guard let game = fields["game"]?.string.flatMap(Game.init(rawValue:)), let best = fields["best"]?.double,
                  let last = fields["lastScore"]?.double, let playedAt = fields["lastPlayedAt"]?.date,
                  let played = fields["gamesPlayed"]?.double else { return nil }
            return GameScore(personId: personId, game: game, best: Int(best), lastScore: Int(last), lastPlayedAt: playedAt,
                             gamesPlayed: Int(played))
        }.sorted { $0.game.rawValue < $1.game.rawValue }
    }
}
