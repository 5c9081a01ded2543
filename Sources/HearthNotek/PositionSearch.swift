/// One run of `PositionID.between`: a walk down the levels of the two bounds
/// that builds the new identifier's path one element at a time.
///
/// Elements are compared as 40-bit numbers `ident << 8 | site`, which order
/// exactly like (ident, site). At each level the new element must lie above
/// the lower limit and below the upper one while the path so far still
/// equals that bound's path; once it differs, that side no longer limits.
struct PositionSearch {
    typealias Element = PositionID.Element

    /// The empty path when the new character goes at the start.
    let lower: [Element]
    /// Nil when the new character goes at the end.
    let upper: [Element]?
    let site: UInt8
    private(set) var path: [Element] = []

    /// How far from its neighbour a new element lands when one side is open.
    /// Small enough that 2^31 / (2^16 / 2) = 65,536 characters typed in a row
    /// fit in one level, large enough to leave room between them for later
    /// insertions.
    static let stepLimit: Int64 = 1 << 16

    private static let nothingBelow: Int64 = -1
    private static let nothingAbove: Int64 = 1 << 40

    init(lower: [Element], upper: [Element]?, site: UInt8) {
        self.lower = lower
        self.upper = upper
        self.site = site
    }

    /// Extends `path` to a complete identifier between the bounds, trying
    /// the shallowest and most usual shapes first and the rest only when
    /// those run out of depth, so it fails only when no identifier of at most
    /// `maximumDepth` fits. On failure `path` is as it was.
    mutating func complete(boundedByLower: Bool, boundedByUpper: Bool, using generator: inout some RandomNumberGenerator) -> Bool {
        let depth = path.count
        guard depth < PositionID.maximumDepth else { return false }
        let lowerHere = boundedByLower && depth < lower.count ? lower[depth] : nil
        var upperHere: Element?
        if boundedByUpper {
            // The path equals all of upper: everything longer sorts after it.
            guard let upper, depth < upper.count else { return false }
            upperHere = upper[depth]
        }
        let low = lowerHere.map(Self.value) ?? Self.nothingBelow
        let high = upperHere.map(Self.value) ?? Self.nothingAbove

        // An element of our own site fits at this level: done.
        if let ident = chooseIdent(above: low, below: high, using: &generator) {
            path.append(Element(ident: ident, site: site))
            return true
        }
        // Follow the lower bound down: the usual way to get room after a
        // neighbour that has none left beside it at this level.
        if let lowerHere {
            path.append(lowerHere)
            let stillBoundedByUpper = boundedByUpper && lowerHere == upperHere
            if complete(boundedByLower: true, boundedByUpper: stillBoundedByUpper, using: &generator) { return true }
            path.removeLast()
        }
        guard high > low else { return false }
        // Any element strictly between the limits, whatever its site, leaves
        // the next level entirely free.
        if high - low >= 2 {
            path.append(Self.element(low >= 0 ? low + 1 : high - 1))
            if complete(boundedByLower: false, boundedByUpper: false, using: &generator) { return true }
            path.removeLast()
        }
        // Nothing lies between (e.g. upper's element is (0, 0), or the next
        // element up): go down the upper bound's path instead. Its element
        // ends the identifier if it is ours, as a proper prefix sorts first.
        if let upperHere, let upper, depth + 1 < upper.count {
            path.append(upperHere)
            if upperHere.site == site { return true }
            if complete(boundedByLower: false, boundedByUpper: true, using: &generator) { return true }
            path.removeLast()
        }
        return false
    }

    /// An ident whose element with our site lies strictly between `low` and
    /// `high`, or nil when there is none.
    private func chooseIdent(above low: Int64, below high: Int64, using generator: inout some RandomNumberGenerator) -> UInt32? {
        let site = Int64(site)
        guard high > site else { return nil }
        let first = low < site ? 0 : (low - site) / 256 + 1
        let last = min((high - site - 1) / 256, Int64(UInt32.max))
        guard first <= last else { return nil }
        let chosen: Int64
        switch (low != Self.nothingBelow, high != Self.nothingAbove) {
        case (true, false):
            // Typing on at the end, the usual case: just past the lower
            // neighbour keeps the rest of the level for what comes next.
            let base = low >> 8
            chosen = last > base ? base + Int64.random(in: 1...min(Self.stepLimit, last - base), using: &generator) : first
        case (false, true):
            // Typing backwards at one spot: just before the upper neighbour.
            let base = high >> 8
            chosen = base > first ? base - Int64.random(in: 1...min(Self.stepLimit, base - first), using: &generator) : last
        case (true, true):
            // Between two neighbours: somewhere in the middle half, leaving
            // room on both sides.
            let span = last - first + 1
            let quarter = span / 4
            chosen = first + quarter + Int64.random(in: 0..<(span - 2 * quarter), using: &generator)
        case (false, false):
            // A free level: around the middle, room both ways.
            let middle = Int64(1) << 31
            chosen = middle - Self.stepLimit / 2 + Int64.random(in: 0..<Self.stepLimit, using: &generator)
        }
        return UInt32(clamping: min(max(chosen, first), last))
    }

    private static func value(_ element: Element) -> Int64 {
        Int64(element.ident) << 8 | Int64(element.site)
    }

    private static func element(_ value: Int64) -> Element {
        Element(ident: UInt32(clamping: value >> 8), site: UInt8(truncatingIfNeeded: value))
    }
}
