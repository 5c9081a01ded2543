import Foundation

/// Builds one Notek frame; the counterpart of `NotekByteReader`. Everything
/// it writes is something the reader accepts (see `name`).
struct NotekByteWriter {
    static let nameEnd: UInt8 = 0x0A
    static let maximumNameLength = 255

    var bytes: [UInt8] = []

    mutating func byte(_ value: UInt8) {
        bytes.append(value)
    }

    mutating func uint32(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift)))
        }
    }

    mutating func uint64(_ value: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }

    mutating func count(_ count: Int) {
        uint64(UInt64(count))
    }

    /// The UUID's 16 bytes in order, as `NotekByteReader.uuid` reads them.
    mutating func uuid(_ uuid: UUID) {
        let u = uuid.uuid
        bytes.append(contentsOf: [
            u.0, u.1, u.2, u.3, u.4, u.5, u.6, u.7,
            u.8, u.9, u.10, u.11, u.12, u.13, u.14, u.15,
        ])
    }

    /// A name cannot hold its own terminator and has at most 255 bytes, so
    /// rather than trap on a caller's mistake each new line is sent as a space
    /// and a longer name is cut after its last whole scalar within 255 bytes.
    mutating func name(_ name: String) {
        var length = 0
        for scalar in name.unicodeScalars {
            let sent: Unicode.Scalar = scalar == "\n" ? " " : scalar
            let width = UTF8.width(sent)
            guard length + width <= Self.maximumNameLength else { break }
            bytes.append(contentsOf: sent.utf8)
            length += width
        }
        bytes.append(Self.nameEnd)
    }

    /// Depth as one byte: more than 255 elements cannot be described, so
    /// only the first 255 are written (the reader refuses anything over 32).
    mutating func positionID(_ position: PositionID) {
        let depth = UInt8(clamping: position.elements.count)
        bytes.append(depth)
        for element in position.elements.prefix(Int(depth)) {
            uint32(element.ident)
            bytes.append(element.site)
        }
    }

    mutating func atom(_ atom: NotekAtom) {
        bytes.append(UInt8(UTF8.width(atom.character)))
        bytes.append(contentsOf: atom.character.utf8)
        positionID(atom.position)
    }
}
