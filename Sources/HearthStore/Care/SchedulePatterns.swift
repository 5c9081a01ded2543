import Foundation
import HearthCore

/// Decoded schedule patterns by their stored text. A pattern row never
/// changes (an edit writes a new version), the texts are few, and every
/// medication list and reminder pass reads all of them, so each text is
/// decoded once per process instead of once per read.
final class SchedulePatterns: Sendable {
    static let shared = SchedulePatterns()

    /// More distinct patterns than a household has; past it the cache starts over.
    private let capacity = 4096
    private let decoded = Locked<[String: DoseSchedule.Pattern]>([:])

    func pattern(stored text: String) throws -> DoseSchedule.Pattern {
        if let known = decoded.withLock({ $0[text] }) { return known }
        let pattern = try JSONDecoder().decode(DoseSchedule.Pattern.self, from: Data(text.utf8))
        decoded.withLock { cache in
            if cache.count >= capacity { cache.removeAll(keepingCapacity: true) }
            cache[text] = pattern
        }
        return pattern
    }

    /// The text a pattern is stored as: the API's JSON shape, keys sorted.
    static func text(of pattern: DoseSchedule.Pattern) throws -> String {
        try JSONValue.object(pattern.json).jsonText()
    }
}
