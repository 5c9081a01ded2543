import Crypto
import Foundation

/// Device tokens and pairing codes are kept only as SHA-256 hashes, so a copy
/// of the database does not let anyone act as a household device.
enum SecretHash {
    static func of(_ secret: String) -> Data {
        Data(SHA256.hash(data: Data(secret.utf8)))
    }
}
