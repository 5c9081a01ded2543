/// Making identifiers for new characters.
extension PositionID {
    /// A new identifier strictly between `lower` and `upper` (nil = the start
    /// / the end of the document) whose last element has `site`, at most
    /// `maximumDepth` deep; nil when none fits, or when `lower` is not below
    /// `upper` (callers must have lower < upper).
    ///
    /// Typing forwards keeps identifiers shallow (about 65,000 characters per
    /// level), and so does typing backwards at one spot.
    public static func between(
        _ lower: PositionID?, _ upper: PositionID?, site: UInt8,
        using generator: inout some RandomNumberGenerator
    ) -> PositionID? {
        if let lower, let upper, !(lower < upper) { return nil }
        // No lower bound behaves like the empty path, which sorts first.
        var search = PositionSearch(lower: lower?.elements ?? [], upper: upper?.elements, site: site)
        guard search.complete(boundedByLower: true, boundedByUpper: upper != nil, using: &generator) else { return nil }
        return PositionID(search.path)
    }

    /// `between(_:_:site:using:)` with the system's random numbers.
    public static func between(_ lower: PositionID?, _ upper: PositionID?, site: UInt8) -> PositionID? {
        var generator = SystemRandomNumberGenerator()
        return between(lower, upper, site: site, using: &generator)
    }
}
