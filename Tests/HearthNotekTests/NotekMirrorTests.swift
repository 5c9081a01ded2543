import HearthCRDT
import HearthNotek
import HearthTestSupport
import Testing

/// The bridge's mirror between a Hearth note's CRDT and Notek's position
/// identifiers: a web editor, the hub's session and a Notek client edit
/// one note at once, with messages delayed and reordered between them, and
/// everyone must end with the same text.
@Suite struct NotekMirrorTests {
    /// A Notek client as the protocol describes one: characters kept sorted by position.
    struct NotekClient {
        let site: UInt8
        var characters: [PositionID: Unicode.Scalar] = [:]
        /// Every position it has known: a position is never used twice (a
        /// deleted character's position stays taken at the hub).
        var seen: Set<PositionID> = []

        var sorted: [(PositionID, Unicode.Scalar)] { characters.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } }
        var text: String { String(String.UnicodeScalarView(sorted.map(\.1))) }

        mutating func apply(_ edit: NotekMirror.Edit) {
            switch edit {
            case .insert(let atom):
                characters[atom.position] = atom.character
                seen.insert(atom.position)
            case .delete(let position): characters[position] = nil
            }
        }
    }

    enum FromNotek {
        case insert(NotekAtom)
        case delete(PositionID)
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func webEditorsHubAndNotekClientConvergeWhateverTheDelivery(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let hub = NoteText(replica: 1)
        let web = NoteText(replica: 2)
        let mirror = NotekMirror(text: NoteText(replica: 3), stored: [], seed: seed)
        #expect(try mirror.assignMissing().isEmpty)
        var notek = NotekClient(site: 7)

        var webToHub: [NoteOperation] = [], hubToWeb: [NoteOperation] = [], hubToMirror: [NoteOperation] = []
        var mirrorToHub: [NoteOperation] = [], mirrorToNotek: [NotekMirror.Edit] = [], notekToMirror: [FromNotek] = []
        let alphabet = Array("abcdefghij żółć😀\n".unicodeScalars)

        func deliver(_ step: Int) throws {
            switch step {
            case 0:
                guard !webToHub.isEmpty else { return }
                let operation = webToHub.removeFirst()
                for applied in try hub.apply(operation, waitForMissing: false) { hubToMirror.append(applied) }
            case 1:
                guard !mirrorToHub.isEmpty else { return }
                let operation = mirrorToHub.removeFirst()
                for applied in try hub.apply(operation, waitForMissing: false) { hubToWeb.append(applied) }
            case 2:
                guard !hubToWeb.isEmpty else { return }
                _ = try web.apply(hubToWeb.removeFirst(), waitForMissing: false)
            case 3:
                guard !hubToMirror.isEmpty else { return }
                let (edits, assigned) = try mirror.apply([hubToMirror.removeFirst()])
                #expect(assigned.allSatisfy { $0.position.elements.last?.site == NotekMirror.hubSite })
                mirrorToNotek += edits
            case 4:
                guard !mirrorToNotek.isEmpty else { return }
                notek.apply(mirrorToNotek.removeFirst())
            default:
                guard !notekToMirror.isEmpty else { return }
                switch notekToMirror.removeFirst() {
                case .insert(let atom):
                    if let (operation, assigned) = try mirror.insert(atom) {
                        expectEqual(assigned.position, atom.position)
                        mirrorToHub.append(operation)
                    }
                case .delete(let position):
                    if let operation = try mirror.delete(position) { mirrorToHub.append(operation) }
                }
            }
        }

        for _ in 0..<600 {
            switch Int.random(in: 0..<10, using: &random) {
            case 0, 1:
                let position = Int.random(in: 0...web.count, using: &random)
                let text = String(String.UnicodeScalarView((0..<Int.random(in: 1...4, using: &random)).map { _ in alphabet.randomElement(using: &random)! }))
                webToHub.append(try web.insert(text, at: position))
            case 2 where web.count > 0:
                let position = Int.random(in: 0..<web.count, using: &random)
                if let deletion = try web.delete(at: position, length: min(2, web.count - position)) { webToHub.append(deletion) }
            case 3, 4:
                let sorted = notek.sorted
                let index = Int.random(in: 0...sorted.count, using: &random)
                let position = try #require(PositionID.between(index > 0 ? sorted[index - 1].0 : nil,
                                                               index < sorted.count ? sorted[index].0 : nil,
                                                               site: notek.site, using: &random))
                guard !notek.seen.contains(position) else { continue }
                let atom = NotekAtom(character: alphabet.randomElement(using: &random)!, position: position)
                notek.characters[position] = atom.character
                notek.seen.insert(position)
                notekToMirror.append(.insert(atom))
                // Now and then a resend, which must change nothing.
                if Int.random(in: 0..<8, using: &random) == 0 { notekToMirror.append(.insert(atom)) }
            case 5 where !notek.characters.isEmpty:
                let position = notek.sorted.randomElement(using: &random)!.0
                notek.characters[position] = nil
                notekToMirror.append(.delete(position))
            default:
                try deliver(Int.random(in: 0..<6, using: &random))
            }
        }
        while !(webToHub.isEmpty && hubToWeb.isEmpty && hubToMirror.isEmpty && mirrorToHub.isEmpty
                && mirrorToNotek.isEmpty && notekToMirror.isEmpty) {
            try deliver(Int.random(in: 0..<6, using: &random))
        }

        expectEqual(web.text, hub.text, "seed \(seed)")
        expectEqual(mirror.text.text, hub.text, "seed \(seed)")
        expectEqual(notek.text, hub.text, "seed \(seed)")
        #expect(!hub.text.isEmpty)
        // Positions follow the CRDT's order, tombstones too.
        var previous: PositionID?
        var unpositioned = 0
        mirror.text.forEachStoredCharacter { character in
            guard let position = mirror.position(of: character.id) else {
                unpositioned += 1
                return
            }
            if let previous { #expect(previous < position, "seed \(seed)") }
            previous = position
        }
        expectEqual(unpositioned, 0)
        expectEqual(mirror.atoms().map(\.position), notek.sorted.map(\.0))
    }

    @Test func positionsSurviveARestartAndCharactersTypedMeanwhileGetNewOnes() throws {
        var random = SeededRandom(seed: 42)
        let hub = NoteText(replica: 1)
        _ = try hub.insert("Mleko, chleb", at: 0)
        let first = NotekMirror(text: try NoteText.decodeState(hub.encodeState(), replica: 3), stored: [])
        let given = try first.assignMissing()
        expectEqual(given.count, 12)
        expectEqual(given.map(\.position), given.map(\.position).sorted())
        let atomsBefore = first.atoms()
        expectEqual(String(String.UnicodeScalarView(atomsBefore.map(\.character))), "Mleko, chleb")

        // While no Notek client was connected, the web typed and deleted.
        _ = try hub.insert(", masło", at: 12)
        _ = try hub.delete(at: 0, length: 1)
        let second = NotekMirror(text: try NoteText.decodeState(hub.encodeState(), replica: 4), stored: given)
        let added = try second.assignMissing()
        expectEqual(added.count, 7, "only the new characters get positions")
        // Old characters kept theirs; the deleted one is a tombstone with its position.
        #expect(second.atoms().map(\.position).starts(with: atomsBefore.dropFirst().map(\.position)))
        expectEqual(second.deletedPositions(), [atomsBefore[0].position])
        expectEqual(String(String.UnicodeScalarView(second.atoms().map(\.character))), "leko, chleb, masło")

        // A Notek client inserting between two old characters lands there.
        let atoms = second.atoms()
        let between = try #require(PositionID.between(atoms[3].position, atoms[4].position, site: 9, using: &random))
        let (operation, _) = try #require(try second.insert(NotekAtom(character: "X", position: between)))
        _ = try hub.apply(operation, waitForMissing: false)
        expectEqual(hub.text, "lekoX, chleb, masło")
    }

    @Test func positionsStoredOutOfOrderAreReplacedNotTrusted() throws {
        let hub = NoteText(replica: 1)
        _ = try hub.insert("abc", at: 0)
        let ids = (0..<3).map { CharacterID(replica: 1, counter: UInt64($0)) }
        let p = { (ident: UInt32) in PositionID([.init(ident: ident, site: 0)]) }
        // b's stored position sorts after c's: damaged.
        let stored = [NotekMirror.Assigned(character: ids[0], position: p(10)),
                      NotekMirror.Assigned(character: ids[1], position: p(50)),
                      NotekMirror.Assigned(character: ids[2], position: p(30))]
        let mirror = NotekMirror(text: try NoteText.decodeState(hub.encodeState(), replica: 3), stored: stored)
        let replaced = try mirror.assignMissing()
        expectEqual(replaced.map(\.character), [ids[2]])
        let positions = mirror.atoms().map(\.position)
        #expect(positions == positions.sorted() && Set(positions).count == 3)
        #expect(positions[0] == p(10) && positions[1] == p(50))
    }

    @Test func aPositionWithNoRoomBesideItIsRefusedAndChangesNothing() throws {
        let mirror = NotekMirror(text: NoteText(replica: 3), stored: [], seed: 1)
        _ = try mirror.assignMissing()
        let first = PositionID([.init(ident: 5, site: 1)])
        #expect(try mirror.insert(NotekAtom(character: "a", position: first)) != nil)
        // Right after `first` with the smallest element there is: nothing could
        // ever be typed between the two, on the web or in Notek.
        let cramped = PositionID([.init(ident: 5, site: 1), .init(ident: 0, site: 0)])
        #expect(throws: NotekMirrorError.cramped) { try mirror.insert(NotekAtom(character: "b", position: cramped)) }
        expectEqual(mirror.text.text, "a")
        expectEqual(mirror.atoms().map(\.position), [first])
    }

    @Test func aDuplicateOrUnknownNotekEditChangesNothing() throws {
        let mirror = NotekMirror(text: NoteText(replica: 3), stored: [])
        _ = try mirror.assignMissing()
        let atom = NotekAtom(character: "ż", position: PositionID([.init(ident: 1000, site: 4)]))
        #expect(try mirror.insert(atom) != nil)
        #expect(try mirror.insert(atom) == nil)
        #expect(try mirror.delete(PositionID([.init(ident: 5, site: 4)])) == nil)
        #expect(try mirror.delete(atom.position) != nil)
        #expect(try mirror.delete(atom.position) == nil)
        expectEqual(mirror.text.text, "")
    }
}
