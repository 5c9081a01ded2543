import Foundation
import HearthNotek

/// Values whose bytes the golden tests write out by hand.
enum Fixture {
    /// Depth 1: (1, 2) → `01 | 01 00 00 00 02`.
    static let shallow = PositionID([.init(ident: 1, site: 2)])
    static let shallowBytes: [UInt8] = [0x01, 0x01, 0x00, 0x00, 0x00, 0x02]

    /// Depth 2: (0x12345678, 7), (0xFFFFFFFF, 255).
    static let deep = PositionID([.init(ident: 0x1234_5678, site: 7), .init(ident: 0xFFFF_FFFF, site: 255)])
    static let deepBytes: [UInt8] = [0x02, 0x78, 0x56, 0x34, 0x12, 0x07, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]

    /// "ż" is two UTF-8 bytes, c5 bc.
    static let polish = NotekAtom(character: "ż", position: shallow)
    static let polishBytes: [UInt8] = [0x02, 0xC5, 0xBC, 0x01, 0x01, 0x00, 0x00, 0x00, 0x02]

    /// "😀" is four, f0 9f 98 80.
    static let emoji = NotekAtom(character: "😀", position: deep)
    static let emojiBytes: [UInt8] = [0x04, 0xF0, 0x9F, 0x98, 0x80, 0x02, 0x78, 0x56, 0x34, 0x12, 0x07, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]

    /// "a" at (256, 0).
    static let latin = NotekAtom(character: "a", position: PositionID([.init(ident: 0x100, site: 0)]))
    static let latinBytes: [UInt8] = [0x01, 0x61, 0x01, 0x00, 0x01, 0x00, 0x00, 0x00]

    /// 00112233-4455-6677-8899-AABBCCDDEEFF (checked against its string in a test).
    static let document = UUID(uuid: (0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF))
    static let documentBytes: [UInt8] = [0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF]

    /// F0E1D2C3-B4A5-9687-7869-5A4B3C2D1E0F.
    static let other = UUID(uuid: (0xF0, 0xE1, 0xD2, 0xC3, 0xB4, 0xA5, 0x96, 0x87, 0x78, 0x69, 0x5A, 0x4B, 0x3C, 0x2D, 0x1E, 0x0F))
    static let otherBytes: [UInt8] = [0xF0, 0xE1, 0xD2, 0xC3, 0xB4, 0xA5, 0x96, 0x87, 0x78, 0x69, 0x5A, 0x4B, 0x3C, 0x2D, 0x1E, 0x0F]

    /// A time whose eight bytes all differ, so byte order shows.
    static let time: UInt64 = 0x0102_0304_0506_0708
    static let timeBytes: [UInt8] = [0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01]
}

/// Which way a frame travels, and so which decoder reads it.
enum Direction: Sendable, CaseIterable, CustomStringConvertible {
    case fromClient, fromHub

    var description: String { self == .fromClient ? "from client" : "from hub" }

    func decode(_ frame: [UInt8], on kind: NotekConnectionKind) throws(NotekProtocolError) -> NotekMessage {
        switch self {
        case .fromClient: return try NotekMessage.decodeFromClient(frame, on: kind)
        case .fromHub: return try NotekMessage.decodeFromHub(frame, on: kind)
        }
    }

    /// The error decoding throws, or nil when it succeeds.
    func error(decoding frame: [UInt8], on kind: NotekConnectionKind) -> NotekProtocolError? {
        do {
            _ = try decode(frame, on: kind)
            return nil
        } catch {
            return error
        }
    }
}

let allKinds: [NotekConnectionKind] = [.undecided, .legacy, .sync, .session]

extension NotekProtocolError {
    var isTruncated: Bool {
        if case .truncated = self { return true }
        return false
    }
}

extension NotekMessage {
    /// Every (direction, connection kind) that reads this message.
    var decodings: [(Direction, NotekConnectionKind)] {
        switch self {
        case .greet, .sessionStart: return [(.fromClient, .undecided)]
        case .newSession, .documentList, .document: return [(.fromHub, kind)]
        case .legacyInsert, .legacyDelete, .insert, .delete, .nameChange: return [(.fromClient, kind), (.fromHub, kind)]
        case .syncList, .pull, .upsert, .rename, .deleteDocument: return [(.fromClient, .undecided), (.fromClient, .sync)]
        }
    }
}
