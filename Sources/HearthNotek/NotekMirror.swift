import HearthCRDT

/// A Hearth note's text as the Notek bridge holds it: a replica of the
/// note's CRDT, and a Notek position identifier for every character,
/// tombstones included, such that sorting characters by identifier gives
/// the CRDT's order.
///
/// Why the two orders stay equal: the order of characters that exist never
/// changes in either scheme, so it is enough that each new character gets
/// a place that agrees. A character from Notek is inserted in the CRDT
/// between the characters whose identifiers are just below and just above
/// its own (they are neighbours here, so it lands exactly there). A
/// character from Hearth gets an identifier between its neighbours' once
/// it is in this replica. Both happen one at a time, in one order, here.
///
/// Not thread-safe: one owner (the note's bridge) uses it at a time.
public final class NotekMirror {
    /// The site of identifiers the hub makes for characters typed in Hearth;
    /// never given to a Notek client.
    public static let hubSite: UInt8 = 0

    /// A character's identifier, as stored.
    public struct Assigned: Hashable, Sendable {
        public var character: CharacterID
        public var position: PositionID

        public init(character: CharacterID, position: PositionID) {
            self.character = character
            self.position = position
        }
    }

    /// What Notek clients must be told after Hearth changed the text.
    public enum Edit: Hashable, Sendable {
        case insert(NotekAtom)
        case delete(PositionID)
    }

    public let text: NoteText
    private var positions: [CharacterID: PositionID] = [:]
    private var characters: [PositionID: CharacterID] = [:]
    private var random: MirrorRandom

    /// `text` as the note's session gave it, and the identifiers stored for
    /// it. Call `assignMissing()` before anything else. `seed` makes the
    /// identifiers it gives repeatable (tests); by default they are random.
    public init(text: NoteText, stored: [Assigned], seed: UInt64? = nil) {
        self.text = text
        var system = SystemRandomNumberGenerator()
        random = MirrorRandom(state: seed ?? system.next())
        for entry in stored where characters[entry.position] == nil {
            positions[entry.character] = entry.position
            characters[entry.position] = entry.character
        }
    }

    /// Gives every character without an identifier one between its
    /// neighbours', and drops stored ones that are out of order (a damaged
    /// row must not scramble the text for Notek clients). Returns the new
    /// identifiers, for the caller to store before telling anyone.
    public func assignMissing() throws(NotekMirrorError) -> [Assigned] {
        var order: [(id: CharacterID, position: PositionID?)] = []
        order.reserveCapacity(text.storedCount)
        var previous: PositionID?
        text.forEachStoredCharacter { character in
            var position = positions[character.id]
            if let current = position, let last = previous, current <= last {
                characters[current] = nil
                positions[character.id] = nil
                position = nil
            }
            if let position { previous = position }
            order.append((character.id, position))
        }
        // Stored rows of characters this replica does not have (an edit that
        // was never stored) name nobody: forget them.
        if positions.count > order.count - order.filter({ $0.position == nil }).count {
            let present = Set(order.map(\.id))
            for (id, position) in positions where !present.contains(id) {
                positions[id] = nil
                characters[position] = nil
            }
        }
        var assigned: [Assigned] = []
        var index = 0
        while index < order.count {
            guard order[index].position == nil else {
                index += 1
                continue
            }
            var end = index
            while end < order.count, order[end].position == nil { end += 1 }
            let lower = index > 0 ? order[index - 1].position : nil
            let upper = end < order.count ? order[end].position : nil
            assigned += try give(order[index..<end].map(\.id), between: lower, and: upper)
            index = end
        }
        return assigned
    }

    // MARK: What Notek clients see

    /// The visible characters in order.
    public func atoms() -> [NotekAtom] {
        var atoms: [NotekAtom] = []
        atoms.reserveCapacity(text.count)
        text.forEachStoredCharacter { character in
            guard !character.isDeleted, let scalar = character.scalar, let position = positions[character.id] else { return }
            atoms.append(NotekAtom(character: scalar, position: position))
        }
        return atoms
    }

    /// Identifiers of deleted characters, in order.
    public func deletedPositions() -> [PositionID] {
        var deleted: [PositionID] = []
        text.forEachStoredCharacter { character in
            if character.isDeleted, let position = positions[character.id] { deleted.append(position) }
        }
        return deleted
    }

    public func position(of character: CharacterID) -> PositionID? { positions[character] }

    // MARK: Edits from Notek

    /// Puts a character a Notek client inserted into the text. Returns the
    /// operation to hand to the note's session and the identifier to store
    /// first; nil when a character with that identifier is already here
    /// (a resend).
    public func insert(_ atom: NotekAtom) throws(NotekMirrorError) -> (operation: NoteOperation, assigned: Assigned)? {
        guard characters[atom.position] == nil else { return nil }
        // The first character whose identifier sorts after the new one.
        var low = 0, high = text.storedCount
        while low < high {
            let middle = (low + high) / 2
            guard let character = text.character(atRaw: middle), let position = positions[character.id] else {
                throw .unpositioned
            }
            if position < atom.position { low = middle + 1 } else { high = middle }
        }
        let left = low > 0 ? text.character(atRaw: low - 1)?.id : nil
        let right = text.character(atRaw: low)?.id
        // A position with no room beside it would leave nowhere for the next
        // character typed there, here or on the web.
        guard PositionID.between(left.flatMap { positions[$0] }, atom.position, site: Self.hubSite, using: &random) != nil,
              PositionID.between(atom.position, right.flatMap { positions[$0] }, site: Self.hubSite, using: &random) != nil
        else { throw .cramped }
        let id = CharacterID(replica: text.replica, counter: text.nextLocalCounter)
        let operation = NoteOperation.insertion(.init(id: id, originLeft: left, originRight: right,
                                                      text: String(Character(atom.character))))
        do {
            _ = try text.apply(operation, waitForMissing: false)
        } catch {
            throw .refused("\(error)")
        }
        record(id, atom.position)
        return (operation, Assigned(character: id, position: atom.position))
    }

    /// Deletes the character a Notek client named; nil when there is no
    /// such character or it is already deleted.
    public func delete(_ position: PositionID) throws(NotekMirrorError) -> NoteOperation? {
        guard let target = characters[position], text.isVisible(target) == true else { return nil }
        let operation = NoteOperation.deletion(.init(
            id: CharacterID(replica: text.replica, counter: text.nextLocalCounter),
            targets: [IDSpan(replica: target.replica, counter: target.counter, length: 1)]))
        do {
            _ = try text.apply(operation, waitForMissing: false)
        } catch {
            throw .refused("\(error)")
        }
        return operation
    }

    // MARK: Edits from Hearth

    /// Applies operations the note's session relayed (already stored) and
    /// returns what Notek clients must hear, and the identifiers given to
    /// new characters, which the caller stores before telling them.
    public func apply(_ operations: [NoteOperation]) throws(NotekMirrorError) -> (edits: [Edit], assigned: [Assigned]) {
        var edits: [Edit] = []
        var assigned: [Assigned] = []
        for operation in operations {
            let applied: [NoteOperation]
            do {
                applied = try text.apply(operation)
            } catch {
                throw .refused("\(error)")
            }
            for done in applied {
                switch done {
                case .insertion(let insertion):
                    let given = try placeInsertion(insertion)
                    assigned += given
                    for (entry, scalar) in zip(given, insertion.text.unicodeScalars) {
                        edits.append(.insert(NotekAtom(character: scalar, position: entry.position)))
                    }
                case .deletion(let deletion):
                    for span in deletion.targets {
                        for counter in span.counter..<span.counter + span.length {
                            if let position = positions[CharacterID(replica: span.replica, counter: counter)] {
                                edits.append(.delete(position))
                            }
                        }
                    }
                }
            }
        }
        return (edits, assigned)
    }

    /// Identifiers for an insertion's characters, which sit side by side.
    private func placeInsertion(_ insertion: NoteOperation.Insertion) throws(NotekMirrorError) -> [Assigned] {
        let count = insertion.text.unicodeScalars.count
        guard let first = text.rawIndex(of: insertion.id) else { throw .unpositioned }
        let ids = (0..<count).map { CharacterID(replica: insertion.id.replica, counter: insertion.id.counter + UInt64($0)) }
        let lower = first > 0 ? text.character(atRaw: first - 1).flatMap { positions[$0.id] } : nil
        var after = first + count
        var upper: PositionID?
        while let next = text.character(atRaw: after) {
            if let position = positions[next.id] {
                upper = position
                break
            }
            after += 1
        }
        return try give(ids, between: lower, and: upper)
    }

    /// Gives `ids`, side by side in this order, identifiers between two.
    private func give(_ ids: [CharacterID], between lower: PositionID?, and upper: PositionID?) throws(NotekMirrorError) -> [Assigned] {
        var assigned: [Assigned] = []
        assigned.reserveCapacity(ids.count)
        var previous = lower
        for id in ids {
            guard let position = PositionID.between(previous, upper, site: Self.hubSite, using: &random) else { throw .noRoom }
            record(id, position)
            assigned.append(Assigned(character: id, position: position))
            previous = position
        }
        return assigned
    }

    private func record(_ id: CharacterID, _ position: PositionID) {
        positions[id] = position
        characters[position] = id
    }
}

/// SplitMix64: identifiers only need to be spread out, and a seed makes a
/// test's run repeatable.
struct MirrorRandom: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Why the mirror could not take an edit; the text is then as it was.
public enum NotekMirrorError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The CRDT refused an operation (it names characters that are not here).
    case refused(String)
    /// No identifier of at most 32 elements fits between two neighbours.
    case noRoom
    /// A character has no identifier: the mirror was used before `assignMissing()`.
    case unpositioned
    /// A Notek position with no room left beside it for another character.
    case cramped

    public var description: String {
        switch self {
        case .refused(let why): return "the edit does not fit the note: \(why)"
        case .noRoom: return "no Notek position fits between two characters"
        case .unpositioned: return "a character has no Notek position"
        case .cramped: return "no position fits next to that one"
        }
    }
}
