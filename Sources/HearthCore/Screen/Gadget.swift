/// What a tile on a senior's panel shows: one thing she does often. The
/// list is fixed (the panel is a set of shortcuts, not a page builder), and
/// its names are the API's, in kebab-case.
public enum Gadget: String, Sendable, Hashable, Codable, CaseIterable {
    /// The next dose due, with its Taken button.
    case nextDose = "next-dose"
    /// Today's doses.
    case today
    case notes
    /// One pinned note's text, read aloud with one press.
    case pinnedNote = "pinned-note"
    /// The time, the weekday and the part of the day in words, large.
    case clock
    /// The people who look after her, each with a number to call.
    case people
    case alerts
    case wordle
    case sudoku
    case memory

    /// The gadget a game's tile is.
    public init(_ game: Game) {
        switch game {
        case .wordle: self = .wordle
        case .sudoku: self = .sudoku
        case .memory: self = .memory
        }
    }
}

/// The games a person plays on the hub's pages, each keeping its best score.
public enum Game: String, Sendable, Hashable, Codable, CaseIterable {
    case wordle, sudoku, memory

    public static func validated(_ raw: String) throws(HearthError) -> Game {
        guard let game = Game(rawValue: raw) else {
            throw .invalid(fields: ["game": "must be one of \(allCases.map(\.rawValue).joined(separator: ", "))"])
        }
        return game
    }
}
