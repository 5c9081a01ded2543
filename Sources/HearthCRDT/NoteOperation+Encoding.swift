/// Batches of operations in format 1 of Docs/note-crdt.md: what a replica
/// sends, and what the hub stores in `note_updates`.
extension NoteOperation {
    static let batchFormat: UInt8 = 1

    public static func encode(_ operations: [NoteOperation]) -> [UInt8] {
        var writer = ByteWriter()
        writer.byte(batchFormat)
        writer.varint(operations.count)
        for operation in operations {
            switch operation {
            case .insertion(let insertion):
                writer.byte(0)
                writer.varint(insertion.id.replica)
                writer.varint(insertion.id.counter)
                writer.byte((insertion.originLeft == nil ? 0 : 1) | (insertion.originRight == nil ? 0 : 2))
                for origin in [insertion.originLeft, insertion.originRight].compactMap({ $0 }) {
                    writer.varint(origin.replica)
                    writer.varint(origin.counter)
                }
                writer.text(insertion.text.unicodeScalars)
            case .deletion(let deletion):
                writer.byte(1)
                writer.varint(deletion.id.replica)
                writer.varint(deletion.id.counter)
                writer.varint(deletion.targets.count)
                for span in deletion.targets {
                    writer.varint(span.replica)
                    writer.varint(span.counter)
                    writer.varint(span.length)
                }
            }
        }
        return writer.bytes
    }

    public static func decode(_ bytes: [UInt8]) throws(NoteTextError) -> [NoteOperation] {
        var reader = ByteReader(bytes)
        guard try reader.byte() == batchFormat else { throw .malformed("not a batch of operations") }
        // Each operation takes at least 5 bytes (kind, replica, counter, and
        // an origin flag and text length, or a span count).
        let count = try reader.count(eachAtLeast: 5, of: "operations")
        var operations: [NoteOperation] = []
        for _ in 0..<count {
            let kind = try reader.byte()
            let id = CharacterID(replica: try reader.varint(), counter: try reader.varint())
            guard id.replica > 0 else { throw .malformed("replica 0") }
            func origin() throws(NoteTextError) -> CharacterID {
                let origin = CharacterID(replica: try reader.varint(), counter: try reader.varint())
                guard origin.replica > 0 else { throw .malformed("replica 0") }
                guard origin.counter < ReplicaRange.counterLimit else { throw .malformed("counter out of range") }
                return origin
            }
            switch kind {
            case 0:
                let flags = try reader.byte()
                guard flags & ~3 == 0 else { throw .malformed("unknown origin flags") }
                let originLeft = flags & 1 != 0 ? try origin() : nil
                let originRight = flags & 2 != 0 ? try origin() : nil
                let scalars = try reader.text()
                guard !scalars.isEmpty else { throw .malformed("an empty insertion") }
                guard id.counter <= ReplicaRange.counterLimit - UInt64(scalars.count) else { throw .malformed("counter out of range") }
                var text = String.UnicodeScalarView()
                text.append(contentsOf: scalars)
                operations.append(.insertion(.init(id: id, originLeft: originLeft, originRight: originRight, text: String(text))))
            case 1:
                // A span is three numbers, each at least a byte.
                let spanCount = try reader.count(eachAtLeast: 3, of: "spans")
                guard spanCount > 0 else { throw .malformed("a deletion of nothing") }
                var targets: [IDSpan] = []
                var total: UInt64 = 0
                for _ in 0..<spanCount {
                    let span = IDSpan(replica: try reader.varint(), counter: try reader.varint(), length: try reader.varint())
                    guard span.replica > 0 else { throw .malformed("replica 0") }
                    guard span.length > 0 else { throw .malformed("an empty deletion span") }
                    guard span.counter < ReplicaRange.counterLimit, span.length <= ReplicaRange.counterLimit - span.counter else {
                        throw .malformed("counter out of range")
                    }
                    total += span.length
                    guard total <= ReplicaRange.counterLimit, id.counter <= ReplicaRange.counterLimit - total else {
                        throw .malformed("counter out of range")
                    }
                    targets.append(span)
                }
                operations.append(.deletion(.init(id: id, targets: targets)))
            default:
                throw .malformed("unknown operation kind \(kind)")
            }
        }
        guard reader.isAtEnd else { throw .malformed("bytes left over") }
        return operations
    }
}
