import Foundation
import HearthNotek
import HearthTestSupport

/// Random protocol values for round trips and fuzzing; all valid.
enum RandomNotek {
    /// One, two, three and four byte characters, the edges of each, and controls.
    static let characters: [Unicode.Scalar] = ["a", "ż", "€", "😀", "\n", "\u{0}", "\u{7F}", "\u{80}", "\u{7FF}", "\u{800}", "\u{FFFF}", "\u{10000}", "\u{10FFFF}"]

    static func element(using random: inout SeededRandom) -> PositionID.Element {
        // Extremes often, so edges get exercised.
        let ident: UInt32 = Bool.random(using: &random) ? [0, 1, .max - 1, .max].randomElement(using: &random) ?? 0 : .random(in: 0 ... .max, using: &random)
        return .init(ident: ident, site: .random(in: 0 ... .max, using: &random))
    }

    static func position(using random: inout SeededRandom) -> PositionID {
        let depth = Int.random(in: 0..<8, using: &random) == 0 ? Int.random(in: 1...PositionID.maximumDepth, using: &random) : Int.random(in: 1...3, using: &random)
        return PositionID((0..<depth).map { _ in element(using: &random) })
    }

    static func character(using random: inout SeededRandom) -> Unicode.Scalar {
        if Bool.random(using: &random), let fixed = characters.randomElement(using: &random) { return fixed }
        while true {
            if let scalar = Unicode.Scalar(UInt32.random(in: 0...0x10FFFF, using: &random)) { return scalar }
        }
    }

    static func atom(using random: inout SeededRandom) -> NotekAtom {
        NotekAtom(character: character(using: &random), position: position(using: &random))
    }

    /// Up to 255 bytes, never a new line.
    static func name(using random: inout SeededRandom) -> String {
        var scalars = String.UnicodeScalarView()
        var length = 0
        let wanted = Int.random(in: 0..<6, using: &random) == 0 ? 300 : Int.random(in: 0...12, using: &random)
        for _ in 0..<wanted {
            let scalar = character(using: &random)
            guard scalar != "\n" else { continue }
            guard length + UTF8.width(scalar) <= 255 else { break }
            scalars.append(scalar)
            length += UTF8.width(scalar)
        }
        return String(scalars)
    }

    static func uuid(using random: inout SeededRandom) -> UUID {
        let b: [UInt8] = (0..<16).map { _ in UInt8.random(in: 0 ... .max, using: &random) }
        return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }

    static func time(using random: inout SeededRandom) -> UInt64 {
        Bool.random(using: &random) ? .random(in: 0 ... .max, using: &random) : .random(in: 0..<1000, using: &random)
    }

    static func atoms(using random: inout SeededRandom) -> [NotekAtom] {
        (0..<Int.random(in: 0...4, using: &random)).map { _ in atom(using: &random) }
    }

    static func positions(using random: inout SeededRandom) -> [PositionID] {
        (0..<Int.random(in: 0...4, using: &random)).map { _ in position(using: &random) }
    }

    static func message(using random: inout SeededRandom) -> NotekMessage {
        let site = UInt8.random(in: 0 ... .max, using: &random)
        switch Int.random(in: 0..<15, using: &random) {
        case 0: return .greet
        case 1: return .newSession(site: site, atoms: atoms(using: &random))
        case 2: return .legacyInsert(site: site, atom: atom(using: &random))
        case 3: return .legacyDelete(site: site, position: position(using: &random))
        case 4: return .syncList(since: time(using: &random))
        case 5: return .pull(document: uuid(using: &random), since: time(using: &random))
        case 6:
            return .upsert(document: uuid(using: &random), name: name(using: &random), since: time(using: &random),
                           inserts: atoms(using: &random), deletes: positions(using: &random))
        case 7: return .rename(document: uuid(using: &random), name: name(using: &random))
        case 8: return .deleteDocument(uuid(using: &random))
        case 9:
            return .documentList((0..<Int.random(in: 0...4, using: &random)).map { _ in
                NotekListedDocument(lastModified: time(using: &random), document: uuid(using: &random))
            })
        case 10:
            return .document(uuid(using: &random), name: name(using: &random),
                             inserts: atoms(using: &random), deletes: positions(using: &random))
        case 11: return .sessionStart(since: time(using: &random), document: uuid(using: &random), name: name(using: &random))
        case 12: return .insert(site: site, atom: atom(using: &random))
        case 13: return .delete(site: site, position: position(using: &random))
        default: return .nameChange(name(using: &random))
        }
    }
}
