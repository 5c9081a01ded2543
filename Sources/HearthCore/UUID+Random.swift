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
}
