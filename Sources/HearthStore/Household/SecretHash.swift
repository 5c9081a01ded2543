import Foundation
import HearthDigest

/// Device tokens and pairing codes are kept only as SHA-256 hashes, so a copy
/// of the database does not let anyone act as a household device.
enum SecretHash {
    static func of(_ secret: String) -> Data {
        Data(SHA256.hash(secret.utf8))
    }
}
