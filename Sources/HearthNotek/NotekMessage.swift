import Foundation

/// One Notek frame (one binary WebSocket message), in either direction.
///
/// Two generations of clients share the listener. Legacy clients greet with
/// `0x00` and edit the one shared document; current clients open either a
/// sync connection (first tag below 64) or an editing session (tag 64). The
/// first frame decides which, and tags 0-3 mean different things on legacy
/// and sync connections, so frames are always decoded against the connection's
/// `NotekConnectionKind`.
public enum NotekMessage: Hashable, Sendable {
    // Legacy session.
    /// `0x00`, exactly one byte: a legacy client's first frame.
    case greet
    /// `0x01`, hub to client: the site assigned to the client and the whole document.
    case newSession(site: UInt8, atoms: [NotekAtom])
    /// `0x02`, both ways.
    case legacyInsert(site: UInt8, atom: NotekAtom)
    /// `0x03`, both ways.
    case legacyDelete(site: UInt8, position: PositionID)

    // Sync connection.
    /// `0`: which documents changed since this time?
    case syncList(since: UInt64)
    /// `1`: send this document's changes since this time.
    case pull(document: UUID, since: UInt64)
    /// `2`: the client's changes to a document (created when new).
    case upsert(document: UUID, name: String, since: UInt64, inserts: [NotekAtom], deletes: [PositionID])
    /// `3`
    case rename(document: UUID, name: String)
    /// `4`
    case deleteDocument(UUID)
    /// `32`, hub to client: the answer to `syncList`.
    case documentList([NotekListedDocument])
    /// `33`, hub to client: the answer to `pull`.
    case document(UUID, name: String, inserts: [NotekAtom], deletes: [PositionID])

    // Editing session.
    /// `64`: the first frame of an editing session.
    case sessionStart(since: UInt64, document: UUID, name: String)
    /// `65`, both ways.
    case insert(site: UInt8, atom: NotekAtom)
    /// `66`, both ways.
    case delete(site: UInt8, position: PositionID)
    /// `67`, both ways.
    case nameChange(String)

    /// The kind of connection this message belongs to; never `.undecided`.
    public var kind: NotekConnectionKind {
        switch self {
        case .greet, .newSession, .legacyInsert, .legacyDelete:
            return .legacy
        case .syncList, .pull, .upsert, .rename, .deleteDocument, .documentList, .document:
            return .sync
        case .sessionStart, .insert, .delete, .nameChange:
            return .session
        }
    }

    /// The first byte of the message's frame.
    var tag: UInt8 {
        switch self {
        case .greet: return NotekTag.greet
        case .newSession: return NotekTag.newSession
        case .legacyInsert: return NotekTag.legacyInsert
        case .legacyDelete: return NotekTag.legacyDelete
        case .syncList: return NotekTag.syncList
        case .pull: return NotekTag.pull
        case .upsert: return NotekTag.upsert
        case .rename: return NotekTag.rename
        case .deleteDocument: return NotekTag.deleteDocument
        case .documentList: return NotekTag.documentList
        case .document: return NotekTag.document
        case .sessionStart: return NotekTag.sessionStart
        case .insert: return NotekTag.insert
        case .delete: return NotekTag.delete
        case .nameChange: return NotekTag.nameChange
        }
    }
}
