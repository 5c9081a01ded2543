/// Frames as sent. Encoding never fails: every message value has a frame,
/// and the frame is one the decoders accept — except for PIDs that are empty
/// or deeper than `PositionID.maximumDepth`, which the caller must not send
/// (`PositionID.between` never makes them). A name is sent with each new line
/// as a space and cut to 255 bytes at a scalar boundary, since a name
/// containing its own terminator is a programmer error the wire cannot carry.
extension NotekMessage {
    /// The frame's bytes.
    public var bytes: [UInt8] {
        var writer = NotekByteWriter()
        writer.byte(tag)
        switch self {
        case .greet:
            break
        case .newSession(let site, let atoms):
            writer.byte(site)
            writer.count(atoms.count)
            for atom in atoms { writer.atom(atom) }
        case .legacyInsert(let site, let atom), .insert(let site, let atom):
            writer.byte(site)
            writer.atom(atom)
        case .legacyDelete(let site, let position), .delete(let site, let position):
            writer.byte(site)
            writer.positionID(position)
        case .syncList(let since):
            writer.uint64(since)
        case .pull(let document, let since):
            writer.uuid(document)
            writer.uint64(since)
        case .upsert(let document, let name, let since, let inserts, let deletes):
            writer.uuid(document)
            writer.name(name)
            writer.uint64(since)
            Self.write(inserts: inserts, deletes: deletes, to: &writer)
        case .rename(let document, let name):
            writer.uuid(document)
            writer.name(name)
        case .deleteDocument(let document):
            writer.uuid(document)
        case .documentList(let documents):
            writer.count(documents.count)
            for listed in documents {
                writer.uint64(listed.lastModified)
                writer.uuid(listed.document)
            }
        case .document(let document, let name, let inserts, let deletes):
            writer.uuid(document)
            writer.name(name)
            Self.write(inserts: inserts, deletes: deletes, to: &writer)
        case .sessionStart(let since, let document, let name):
            writer.uint64(since)
            writer.uuid(document)
            writer.name(name)
        case .nameChange(let name):
            writer.name(name)
        }
        return writer.bytes
    }

    private static func write(inserts: [NotekAtom], deletes: [PositionID], to writer: inout NotekByteWriter) {
        writer.count(inserts.count)
        for atom in inserts { writer.atom(atom) }
        writer.count(deletes.count)
        for position in deletes { writer.positionID(position) }
    }
}
