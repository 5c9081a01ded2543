/// A senior's panel: the page her device opens on, one to six large tiles in
/// places 1–6, each a different gadget. The senior, a caregiver who looks
/// after her or an admin arranges it; the hub keeps it, so every device of
/// hers shows the same panel and follows a change at once.
public struct Panel: Sendable, Hashable, Codable {
    public struct Tile: Sendable, Hashable, Codable {
        public var position: Int
        public var gadget: Gadget

        public init(position: Int, gadget: Gadget) {
            self.position = position
            self.gadget = gadget
        }
    }

    /// The design's limit: more tiles would no longer be large on a tablet.
    public static let places = 1...6

    /// In the order of their places.
    public private(set) var tiles: [Tile]

    /// Panels are made through `validated` (or `standard`), so a panel always keeps the rules.
    init(sortedTiles: [Tile]) {
        tiles = sortedTiles
    }

    /// A senior's panel before anyone has arranged it: what she does most.
    public static let standard = Panel(sortedTiles: [
        Tile(position: 1, gadget: .nextDose),
        Tile(position: 2, gadget: .clock),
        Tile(position: 3, gadget: .people),
        Tile(position: 4, gadget: .pinnedNote),
        Tile(position: 5, gadget: .today),
        Tile(position: 6, gadget: .memory),
    ])

    /// A tile as a client sent it: either part may be missing or unknown.
    public struct RequestedTile: Sendable {
        public var position: Int?
        public var gadget: String?

        public init(position: Int?, gadget: String?) {
            self.position = position
            self.gadget = gadget
        }
    }

    /// The panel these tiles make, or 422 naming the first field at fault
    /// (`tiles`, `tiles.2.position`, `tiles.2.gadget`): one to six tiles,
    /// each in a place from 1 to 6 no other tile takes, each gadget once.
    public static func validated(_ requested: [RequestedTile]) throws(HearthError) -> Panel {
        guard !requested.isEmpty else { throw .invalid(fields: ["tiles": "must hold at least one tile"]) }
        guard requested.count <= places.count else {
            throw .invalid(fields: ["tiles": "holds at most \(places.count) tiles, not \(requested.count)"])
        }
        var tiles: [Tile] = []
        for (index, tile) in requested.enumerated() {
            guard let position = tile.position, places.contains(position) else {
                throw .invalid(fields: ["tiles.\(index).position": "must be a whole number from 1 to 6"])
            }
            guard let raw = tile.gadget, let gadget = Gadget(rawValue: raw) else {
                throw .invalid(fields: ["tiles.\(index).gadget": "must be one of \(Gadget.allCases.map(\.rawValue).joined(separator: ", "))"])
            }
            if tiles.contains(where: { $0.position == position }) {
                throw .invalid(fields: ["tiles.\(index).position": "place \(position) already has a tile"])
            }
            if tiles.contains(where: { $0.gadget == gadget }) {
                throw .invalid(fields: ["tiles.\(index).gadget": "\(raw) is on the panel already"])
            }
            tiles.append(Tile(position: position, gadget: gadget))
        }
        return Panel(sortedTiles: tiles.sorted { $0.position < $1.position })
    }
}
