import Foundation

extension UUID {
    /// A new random ID (RFC 9562 version 4), from the system's random
    /// source in one call (`arc4random_buf`: `getrandom` on Linux).
    /// Foundation's `UUID()` on Linux opens, reads and closes /dev/urandom
    /// for each ID: three system calls for every dose recorded.
    public static func random() -> UUID {
        var words: (UInt64, UInt64) = (0, 0)
        return withUnsafeMutableBytes(of: &words) { bytes in
            // A 16-byte value always has an address; Foundation's is the fallback.
            guard let start = bytes.baseAddress else { return UUID() }
            arc4random_buf(start, bytes.count)
            bytes[6] = (bytes[6] & 0x0F) | 0x40  // version 4
            bytes[8] = (bytes[8] & 0x3F) | 0x80  // the RFC's variant
            return UUID(uuid: bytes.loadUnaligned(as: uuid_t.self))
        }
    }

    /// A new ID that sorts by the moment it was made (RFC 9562 version 7:
    /// 48 bits of milliseconds since 1970, then random bits), for rows
    /// stored by id whose new ones should land together: doses, kept in a
    /// b-tree by id, are written to its last pages instead of anywhere in
    /// it, so the log carries the same few pages into the database file
    /// instead of one for nearly every dose (an SD card's wear, issue 41).
    public static func timeOrdered(at moment: Date) -> UUID {
        var id = random().uuid
        let milliseconds = UInt64(max(0, moment.timeIntervalSince1970 * 1000).rounded(.down))
        withUnsafeMutableBytes(of: &id) { bytes in
            for index in 0..<6 { bytes[index] = UInt8(truncatingIfNeeded: milliseconds >> (8 * (5 - index))) }
            bytes[6] = (bytes[6] & 0x0F) | 0x70  // version 7
        }
        return UUID(uuid: id)
    }
}
