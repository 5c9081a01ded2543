/// HMAC with SHA-256 (RFC 2104): the signature on the links behind an alert
/// notification's buttons (`AlertActionLink`), under each alert app's own key.
public enum HMACSHA256 {
    public static func code(for message: some Sequence<UInt8>, key: some Collection<UInt8>) -> [UInt8] {
        // A key longer than a block is hashed first; a shorter one is padded with zeros.
        var block = key.count > SHA256.blockSize ? SHA256.hash(key) : Array(key)
        block += [UInt8](repeating: 0, count: SHA256.blockSize - block.count)
        var inner = SHA256()
        inner.update(block.map { $0 ^ 0x36 })
        inner.update(message)
        var outer = SHA256()
        outer.update(block.map { $0 ^ 0x5c })
        outer.update(inner.finalize())
        return outer.finalize()
    }

    /// Whether `code` is the message's code under `key`. It compares every
    /// byte whatever the first difference, so the time taken does not tell
    /// a forger how many leading bytes were right.
    public static func isValid(_ code: some Collection<UInt8>, for message: some Sequence<UInt8>, key: some Collection<UInt8>) -> Bool {
        let expected = Self.code(for: message, key: key)
        guard code.count == expected.count else { return false }
        return zip(code, expected).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
