import Foundation
import HearthCRDT

/// The frames of `WS /api/v1/notes/{id}/edit`: binary, a version byte (1)
/// and a type byte first. See NoteEditController for the conversation.
public enum NoteEditMessage: Equatable, Sendable {
    // Editor → hub
    /// The editor's version vector; the hub answers with what it lacks.
    case hello(VersionVector)
    /// Where the editor's cursor is: a small JSON object, relayed to the
    /// other editors with the editor's name and colour, never stored.
    case presence(Data)

    // Both ways
    /// Operations (Docs/note-crdt.md format 1).
    case operations([UInt8])

    // Hub → editor
    /// The whole note (format 2), for an editor that has nothing yet.
    case state([UInt8])
    /// Catching up is done; this is the hub's version vector, so the editor
    /// sends whatever of its own the hub lacks.
    case synced(VersionVector)
    /// Stored: for each replica named, every counter below its entry.
    case acknowledged(VersionVector)
    /// Another editor's presence (JSON with `editor`, `name`, `colour`, and
    /// the editor's own fields).
    case otherPresence(Data)

    public static let version: UInt8 = 1

    public enum Kind: UInt8 {
        case hello = 0x01, operations = 0x02, presence = 0x03
        case state = 0x11, synced = 0x12, acknowledged = 0x13, otherPresence = 0x14
    }

    /// Largest presence object accepted.
    public static let maximumPresenceBytes = 1024

    public enum Problem: Error, Equatable {
        case unsupportedVersion(UInt8)
        case unknownKind(UInt8)
        case malformed(String)
    }

    public func encoded() -> [UInt8] {
        func frame(_ kind: Kind, _ body: [UInt8]) -> [UInt8] { [Self.version, kind.rawValue] + body }
        switch self {
        case .hello(let vector): return frame(.hello, vector.encoded())
        case .presence(let json): return frame(.presence, Array(json))
        case .operations(let batch): return frame(.operations, batch)
        case .state(let state): return frame(.state, state)
        case .synced(let vector): return frame(.synced, vector.encoded())
        case .acknowledged(let vector): return frame(.acknowledged, vector.encoded())
        case .otherPresence(let json): return frame(.otherPresence, Array(json))
        }
    }

    public static func decode(_ bytes: [UInt8]) throws(Problem) -> NoteEditMessage {
        guard bytes.count >= 2 else { throw .malformed("a frame of fewer than 2 bytes") }
        guard bytes[0] == version else { throw .unsupportedVersion(bytes[0]) }
        guard let kind = Kind(rawValue: bytes[1]) else { throw .unknownKind(bytes[1]) }
        let body = Array(bytes[2...])
        switch kind {
        case .hello: return .hello(try decodeVector(body))
        case .synced: return .synced(try decodeVector(body))
        case .operations: return .operations(body)
        case .state: return .state(body)
        case .presence, .otherPresence:
            guard body.count <= maximumPresenceBytes,
                  (try? JSONSerialization.jsonObject(with: Data(body))) is [String: Any]
            else { throw .malformed("presence must be a JSON object of at most \(maximumPresenceBytes) bytes") }
            return kind == .presence ? .presence(Data(body)) : .otherPresence(Data(body))
        case .acknowledged: return .acknowledged(try decodeVector(body))
        }
    }

    public static func decodeVector(_ body: [UInt8]) throws(Problem) -> VersionVector {
        do {
            return try VersionVector.decode(body)
        } catch {
            throw .malformed("\(error)")
        }
    }
}
