import Foundation
import HearthCore

/// Reads one Notek frame front to back. Every read checks what is left
/// first, so a short or hostile frame ends in a `NotekProtocolError`, never in
/// a trap or a large allocation.
struct NotekByteReader {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    var remainingCount: Int { bytes.count - index }

    /// Called after the last field: a message is the whole frame.
    func finish() throws(NotekProtocolError) {
        guard remainingCount == 0 else { throw .trailingBytes(remainingCount) }
    }

    mutating func byte(_ what: String) throws(NotekProtocolError) -> UInt8 {
        try need(1, what)
        defer { index += 1 }
        return bytes[index]
    }

    mutating func uint32(_ what: String) throws(NotekProtocolError) -> UInt32 {
        UInt32(truncatingIfNeeded: try littleEndian(byteCount: 4, what))
    }

    mutating func uint64(_ what: String) throws(NotekProtocolError) -> UInt64 {
        try littleEndian(byteCount: 8, what)
    }

    /// A `u128` document id: the wire bytes are the UUID's bytes in order
    /// (not a little-endian number), so ids read the same on every client.
    mutating func uuid(_ what: String) throws(NotekProtocolError) -> UUID {
        try need(16, what)
        let b = Array(bytes[index..<index + 16])
        index += 16
        return UUID(uuid: (
            b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7],
            b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]
        ))
    }

    /// A `u64` count of items that each take at least `minimumSize` bytes,
    /// refused when the rest of the frame could not hold that many — so a
    /// forged count never drives an allocation or a long loop.
    mutating func count(_ what: String, eachAtLeast minimumSize: Int) throws(NotekProtocolError) -> Int {
        let count = try uint64(what)
        guard count <= UInt64(remainingCount / minimumSize) else { throw .countTooLarge(count) }
        return Int(count)
    }

    /// UTF-8 up to the first new line, which is consumed and not part of the name.
    mutating func name() throws(NotekProtocolError) -> String {
        guard let end = bytes[index...].firstIndex(of: NotekByteWriter.nameEnd) else {
            throw .truncated(what: "a name (no new line)")
        }
        let length = end - index
        guard length <= NotekByteWriter.maximumNameLength else { throw .nameTooLong(length) }
        guard let name = String(validUTF8: bytes[index..<end]) else { throw .nameNotUTF8 }
        index = end + 1
        return name
    }

    mutating func positionID() throws(NotekProtocolError) -> PositionID {
        let depth = Int(try byte("a PID's depth"))
        guard (1...PositionID.maximumDepth).contains(depth) else { throw .badDepth(depth) }
        try need(depth * 5, "a PID")
        var elements: [PositionID.Element] = []
        for _ in 0..<depth {
            let ident = try uint32("a PID")
            let site = try byte("a PID")
            elements.append(PositionID.Element(ident: ident, site: site))
        }
        return PositionID(elements)
    }

    mutating func atom() throws(NotekProtocolError) -> NotekAtom {
        let length = Int(try byte("an atom's character length"))
        guard (1...4).contains(length) else { throw .badCharacterLength(length) }
        try need(length, "an atom's character")
        let encoded = bytes[index..<index + length]
        index += length
        // Strictly one scalar, in its one valid encoding (the decoder refuses
        // overlong forms and surrogates; the width check is belt and braces),
        // so re-encoding gives back the same bytes.
        var decoder = UTF8()
        var iterator = encoded.makeIterator()
        guard case .scalarValue(let character) = decoder.decode(&iterator),
              case .emptyInput = decoder.decode(&iterator),
              UTF8.width(character) == length
        else { throw .notOneCharacter }
        return NotekAtom(character: character, position: try positionID())
    }

    private mutating func littleEndian(byteCount: Int, _ what: String) throws(NotekProtocolError) -> UInt64 {
        try need(byteCount, what)
        var value: UInt64 = 0
        for offset in 0..<byteCount {
            value |= UInt64(bytes[index + offset]) << (8 * UInt64(offset))
        }
        index += byteCount
        return value
    }

    private func need(_ count: Int, _ what: String) throws(NotekProtocolError) {
        guard count <= remainingCount else { throw .truncated(what: what) }
    }
}
