/// Where one character sits in a Notek document, Logoot style: a path of
/// (ident, site) elements. Characters are kept sorted by these, so people who
/// type at the same spot get distinct positions that every replica orders the
/// same way, without asking each other.
public struct PositionID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// One level of the path. The site is the writer's, so two writers never
    /// make the same identifier even when they pick the same ident.
    public struct Element: Hashable, Comparable, Sendable {
        public var ident: UInt32
        public var site: UInt8

        public init(ident: UInt32, site: UInt8) {
            self.ident = ident
            self.site = site
        }

        public static func < (left: Element, right: Element) -> Bool {
            (left.ident, left.site) < (right.ident, right.site)
        }
    }

    public var elements: [Element]

    public init(_ elements: [Element]) {
        self.elements = elements
    }

    /// The deepest identifier the protocol allows; deeper (or empty) ones are
    /// refused on the wire, and `between` never makes one.
    public static let maximumDepth = 32

    /// Element by element; a proper prefix sorts first, which is what lets
    /// `between` put new characters after a neighbour by extending its path.
    public static func < (left: PositionID, right: PositionID) -> Bool {
        left.elements.lexicographicallyPrecedes(right.elements)
    }

    /// For logs and test failures, e.g. `[305419896:7 4294967295:255]`.
    public var description: String {
        "[" + elements.map { "\($0.ident):\($0.site)" }.joined(separator: " ") + "]"
    }
}
