/// Frames as received. A frame must be exactly one complete message of the
/// connection's kind; anything else throws, and the hub closes the connection.
extension NotekMessage {
    /// The fewest bytes an atom takes (one-byte character, depth-1 PID), and
    /// a PID, and a synclist entry: the floor for checking counts.
    static let minimumAtomSize = 8
    static let minimumPositionSize = 6
    static let listedDocumentSize = 24

    /// Decodes a frame a client sent on a connection of `kind`.
    ///
    /// On `.undecided` (the first frame): the one-byte `0x00` is a legacy
    /// greet, tags 0-4 are sync requests (so a longer frame starting `0x00` is
    /// a synclist), and 64 starts an editing session. Later, `.legacy` takes
    /// only `0x02`/`0x03`, `.sync` only 0-4 and `.session` only 65-67.
    /// Refusals name `wrongConnectionKind` for a message that exists but not
    /// here (a second greet or session_start included, and a one-byte `0x00`
    /// on a sync connection counts as a greet), `unknownTag` otherwise.
    public static func decodeFromClient(_ frame: [UInt8], on kind: NotekConnectionKind) throws(NotekProtocolError) -> NotekMessage {
        var reader = NotekByteReader(frame)
        let tag = try reader.byte("a message tag")
        let isGreet = tag == NotekTag.greet && frame.count == 1
        let isSyncRequest = tag <= NotekTag.deleteDocument && !isGreet
        let message: NotekMessage
        switch kind {
        case .undecided where isGreet:
            message = .greet
        case .undecided where isSyncRequest, .sync where isSyncRequest:
            message = try syncRequest(tag, &reader)
        case .undecided where tag == NotekTag.sessionStart:
            message = .sessionStart(since: try reader.uint64("session_start's time"),
                                    document: try reader.uuid("session_start's document id"),
                                    name: try reader.name())
        case .legacy where tag == NotekTag.legacyInsert || tag == NotekTag.legacyDelete:
            message = try legacyEdit(tag, &reader)
        case .session where tag == NotekTag.insert || tag == NotekTag.delete || tag == NotekTag.nameChange:
            message = try sessionEdit(tag, &reader)
        default:
            throw NotekTag.isFromClient(tag) ? .wrongConnectionKind(tag: tag, connection: kind) : .unknownTag(tag, kind)
        }
        try reader.finish()
        return message
    }

    /// Decodes a frame the hub sent (for clients and tests): `.legacy` takes
    /// `0x01`-`0x03`, `.sync` 32/33 and `.session` 65-67. The hub never
    /// speaks first, so on `.undecided` every frame is refused.
    public static func decodeFromHub(_ frame: [UInt8], on kind: NotekConnectionKind) throws(NotekProtocolError) -> NotekMessage {
        var reader = NotekByteReader(frame)
        let tag = try reader.byte("a message tag")
        let message: NotekMessage
        switch kind {
        case .legacy where tag == NotekTag.newSession:
            let site = try reader.byte("new session's site")
            let count = try reader.count("new session's atom count", eachAtLeast: minimumAtomSize)
            var atoms: [NotekAtom] = []
            for _ in 0..<count { atoms.append(try reader.atom()) }
            message = .newSession(site: site, atoms: atoms)
        case .legacy where tag == NotekTag.legacyInsert || tag == NotekTag.legacyDelete:
            message = try legacyEdit(tag, &reader)
        case .sync where tag == NotekTag.documentList:
            let count = try reader.count("the document list's count", eachAtLeast: listedDocumentSize)
            var documents: [NotekListedDocument] = []
            for _ in 0..<count {
                documents.append(NotekListedDocument(
                    lastModified: try reader.uint64("a listed document's time"),
                    document: try reader.uuid("a listed document's id")))
            }
            message = .documentList(documents)
        case .sync where tag == NotekTag.document:
            let document = try reader.uuid("sync_doc_response's document id")
            let name = try reader.name()
            let (inserts, deletes) = try changes(&reader)
            message = .document(document, name: name, inserts: inserts, deletes: deletes)
        case .session where tag == NotekTag.insert || tag == NotekTag.delete || tag == NotekTag.nameChange:
            message = try sessionEdit(tag, &reader)
        default:
            throw NotekTag.isFromHub(tag) ? .wrongConnectionKind(tag: tag, connection: kind) : .unknownTag(tag, kind)
        }
        try reader.finish()
        return message
    }

    /// Tags 0-4 after the tag byte.
    private static func syncRequest(_ tag: UInt8, _ reader: inout NotekByteReader) throws(NotekProtocolError) -> NotekMessage {
        switch tag {
        case NotekTag.syncList:
            return .syncList(since: try reader.uint64("synclist's time"))
        case NotekTag.pull:
            return .pull(document: try reader.uuid("sync_doc_pull's document id"),
                         since: try reader.uint64("sync_doc_pull's time"))
        case NotekTag.upsert:
            let document = try reader.uuid("sync_doc_upsert's document id")
            let name = try reader.name()
            let since = try reader.uint64("sync_doc_upsert's time")
            let (inserts, deletes) = try changes(&reader)
            return .upsert(document: document, name: name, since: since, inserts: inserts, deletes: deletes)
        case NotekTag.rename:
            return .rename(document: try reader.uuid("rename's document id"), name: try reader.name())
        default:
            return .deleteDocument(try reader.uuid("delete_doc's document id"))
        }
    }

    /// `0x02`/`0x03` after the tag byte.
    private static func legacyEdit(_ tag: UInt8, _ reader: inout NotekByteReader) throws(NotekProtocolError) -> NotekMessage {
        let site = try reader.byte("an edit's site")
        if tag == NotekTag.legacyInsert {
            return .legacyInsert(site: site, atom: try reader.atom())
        }
        return .legacyDelete(site: site, position: try reader.positionID())
    }

    /// 65-67 after the tag byte.
    private static func sessionEdit(_ tag: UInt8, _ reader: inout NotekByteReader) throws(NotekProtocolError) -> NotekMessage {
        switch tag {
        case NotekTag.insert:
            return .insert(site: try reader.byte("an insert's site"), atom: try reader.atom())
        case NotekTag.delete:
            return .delete(site: try reader.byte("a delete's site"), position: try reader.positionID())
        default:
            return .nameChange(try reader.name())
        }
    }

    /// `u64 n_inserts`, atoms, `u64 n_deletes`, PIDs.
    private static func changes(_ reader: inout NotekByteReader) throws(NotekProtocolError) -> ([NotekAtom], [PositionID]) {
        let insertCount = try reader.count("the insert count", eachAtLeast: minimumAtomSize)
        var inserts: [NotekAtom] = []
        for _ in 0..<insertCount { inserts.append(try reader.atom()) }
        let deleteCount = try reader.count("the delete count", eachAtLeast: minimumPositionSize)
        var deletes: [PositionID] = []
        for _ in 0..<deleteCount { deletes.append(try reader.positionID()) }
        return (inserts, deletes)
    }
}
