import Foundation
import GRDB
import HearthCore

/// A finished game as the hub kept it: the person's record in that game
/// now, and whether this game set a new best.
public struct KeptScore: Sendable, Equatable {
    public var record: GameScore
    public var newBest: Bool
}

extension HearthStore {
    /// Keeps a finished game's score for the person playing: their best
    /// stays unless this one is higher; the last score, when they played and
    /// how many games they finished are kept too. Never each move.
    public func keepScore(_ score: Int?, in game: Game, as player: PermissionPolicy.Actor, by origin: String) async throws -> KeptScore {
        let score = try GameScore.validated(score)
        return try await write(by: origin) { transaction in
            let db = transaction.db
            _ = try Self.screenOwner(player.personId, for: .edit, as: player, db)
            let earlier = try Self.gameScores(of: player.personId, db).first { $0.game == game }
            let record = GameScore(personId: player.personId, game: game, best: max(score, earlier?.best ?? 0), lastScore: score,
                                   lastPlayedAt: transaction.time, gamesPlayed: (earlier?.gamesPlayed ?? 0) + 1)
            try db.cachedExecute(sql: """
                INSERT INTO game_scores (personId, game, best, lastScore, lastPlayedAt, gamesPlayed) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (personId, game) DO UPDATE SET best = excluded.best, lastScore = excluded.lastScore,
                    lastPlayedAt = excluded.lastPlayedAt, gamesPlayed = excluded.gamesPlayed
                """, arguments: [record.personId.text, game.rawValue, record.best, record.lastScore,
                                 record.lastPlayedAt.millisecondsSince1970, record.gamesPlayed])
            try transaction.record(entity: .gameScore, entityId: "\(player.personId.text):\(game.rawValue)",
                                   op: earlier == nil ? .create : .update, payload: Self.payload(of: record))
            return KeptScore(record: record, newBest: score > (earlier?.best ?? 0))
        }
    }

    /// A person's best score in each game they finished, for someone who may see their screen.
    public func gameScores(of personId: UUID, visibleTo actor: PermissionPolicy.Actor) async throws -> [GameScore] {
        try await pool.read { db in
            _ = try Self.screenOwner(personId, for: .view, as: actor, db)
            return try Self.gameScores(of: personId, db)
        }
    }

    static func gameScores(of personId: UUID, _ db: Database) throws -> [GameScore] {
        try Row.fetchAll(db.cachedStatement(sql: """
            SELECT game, best, lastScore, lastPlayedAt, gamesPlayed FROM game_scores WHERE personId = ? ORDER BY game
            """), arguments: [personId.text]).compactMap { row in
            // A game this version does not know (a newer hub's backup) is left out.
            guard let game = Game(rawValue: row["game"]) else { return nil }
            return GameScore(personId: personId, game: game, best: row["best"], lastScore: row["lastScore"],
                             lastPlayedAt: Date(millisecondsSince1970: row["lastPlayedAt"]), gamesPlayed: row["gamesPlayed"])
        }
    }

    static func payload(of record: GameScore) -> JSONValue {
        [
            "personId": .string(record.personId.text), "game": .string(record.game.rawValue), "best": .number(Double(record.best)),
            "lastScore": .number(Double(record.lastScore)), "lastPlayedAt": .string(ISOTime.text(record.lastPlayedAt)),
            "gamesPlayed": .number(Double(record.gamesPlayed)),
        ]
    }
}
