/// A version vector as the editing protocol sends it: `varint count`, then
/// `count x (varint replica, varint next counter)`, replicas ascending.
extension VersionVector {
    public func encoded() -> [UInt8] {
        var writer = ByteWriter()
        let entries = next.sorted { $0.key < $1.key }
        writer.varint(entries.count)
        for (replica, counter) in entries {
            writer.varint(replica)
            writer.varint(counter)
        }
        return writer.bytes
    }

    public static func decode(_ bytes: [UInt8]) throws(NoteTextError) -> VersionVector {
        var reader = ByteReader(bytes)
        // An entry is a replica and a counter, a byte each at least.
        let count = try reader.count(eachAtLeast: 2, of: "entries")
        var next: [UInt64: UInt64] = [:]
        var previous: UInt64 = 0
        for _ in 0..<count {
            let replica = try reader.varint(), counter = try reader.varint()
            guard replica > previous else { throw .malformed("replicas not ascending, or replica 0") }
            guard counter > 0, counter <= ReplicaRange.counterLimit else { throw .malformed("a counter out of range") }
            previous = replica
            next[replica] = counter
        }
        guard reader.isAtEnd else { throw .malformed("bytes left over") }
        return VersionVector(next)
    }
}
