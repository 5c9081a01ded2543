import Foundation

/// A person's record in one game: the best score they made, and when they
/// last finished a game. Caregivers see that she played and how well, never
/// each move (the hub is told only of finished games).
public struct GameScore: Sendable, Hashable, Codable {
    public var personId: UUID
    public var game: Game
    public var best: Int
    public var lastScore: Int
    public var lastPlayedAt: Date
    public var gamesPlayed: Int

    public init(personId: UUID, game: Game, best: Int, lastScore: Int, lastPlayedAt: Date, gamesPlayed: Int) {
        self.personId = personId
        self.game = game
        self.best = best
        self.lastScore = lastScore
        self.lastPlayedAt = lastPlayedAt
        self.gamesPlayed = gamesPlayed
    }

    /// The highest score a game can give; more is a client's mistake.
    public static let highest = 1_000_000

    /// A finished game's score: a positive whole number, or 422 naming `score`.
    public static func validated(_ score: Int?) throws(HearthError) -> Int {
        guard let score, score >= 1, score <= highest else {
            throw .invalid(fields: ["score": "must be a whole number from 1 to \(highest)"])
        }
        return score
    }
}
