/// Unsigned LEB128 varints and the rest of Docs/note-crdt.md's primitives.
struct ByteWriter {
    var bytes: [UInt8] = []

    mutating func byte(_ value: UInt8) {
        bytes.append(value)
    }

    mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    mutating func varint(_ value: Int) {
        varint(UInt64(value))
    }

    mutating func zigzag(_ value: Int) {
        varint(value >= 0 ? UInt64(value) << 1 : (UInt64(-(value + 1)) << 1) | 1)
    }

    mutating func text(_ scalars: some Collection<Unicode.Scalar>) {
        var utf8: [UInt8] = []
        for scalar in scalars { utf8.append(contentsOf: UTF8.encode(scalar)!) }
        varint(utf8.count)
        bytes.append(contentsOf: utf8)
    }
}

/// Reads what `ByteWriter` wrote; every read checks its bounds and throws
/// `NoteTextError.malformed` instead of reading past the end.
struct ByteReader {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { index == bytes.count }
    var remaining: Int { bytes.count - index }

    /// A count read off the wire of things each at least `size` bytes long,
    /// refused when the bytes left cannot hold that many: nothing is ever
    /// sized by what a sender claims, only by what it sent.
    mutating func count(eachAtLeast size: Int, of what: String) throws(NoteTextError) -> Int {
        let count = try count()
        guard count <= remaining / size else { throw .malformed("more \(what) than the bytes hold") }
        return count
    }

    mutating func byte() throws(NoteTextError) -> UInt8 {
        guard index < bytes.count else { throw .malformed("ends too early") }
        defer { index += 1 }
        return bytes[index]
    }

    /// At most 8 bytes and below 2^53, the range a browser holds exactly.
    mutating func varint() throws(NoteTextError) -> UInt64 {
        var value: UInt64 = 0
        for shift in stride(from: 0, to: 56, by: 7) {
            let next = try byte()
            value |= UInt64(next & 0x7F) << UInt64(shift)
            if next & 0x80 == 0 {
                // One encoding per value: a last byte of 0 would only pad.
                guard next != 0 || shift == 0 else { throw .malformed("a number with needless bytes") }
                guard value < ReplicaRange.limit else { throw .malformed("a number of 2^53 or more") }
                return value
            }
        }
        throw .malformed("a number longer than 8 bytes")
    }

    mutating func count() throws(NoteTextError) -> Int {
        Int(try varint())
    }

    mutating func zigzag() throws(NoteTextError) -> Int {
        let raw = try varint()
        return raw & 1 == 0 ? Int(raw >> 1) : -Int(raw >> 1) - 1
    }

    mutating func text() throws(NoteTextError) -> [Unicode.Scalar] {
        let length = try count()
        guard length <= bytes.count - index else { throw .malformed("text runs past the end") }
        let slice = bytes[index..<index + length]
        index += length
        var scalars: [Unicode.Scalar] = []
        var decoder = UTF8()
        var iterator = slice.makeIterator()
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): scalars.append(scalar)
            case .emptyInput: break loop
            case .error: throw .malformed("text that is not UTF-8")
            }
        }
        return scalars
    }
}
