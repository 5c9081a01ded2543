import Foundation

/// A one-time invitation for a device, made by `hearth pair` or an admin's
/// Household page. It has two forms for the same pairing:
/// - `secret`, 128 random bits in the QR code's URL fragment, for scanning
///   (plenty for a single-use code that lives minutes, and short enough that
///   the URL's QR code fits an 80×24 terminal);
/// - `shortCode`, 8 Crockford base32 characters shown as `XXXX-XXXX`, for
///   typing by hand. Being short (40 bits), it is guarded by slowing
///   whoever types wrong ones (the server's `WrongCodeBackOff`), never by
///   burning it: that would let anyone end everyone's codes.
/// Only hashes of both are stored.
public struct PairingCode: Sendable, Hashable {
    public let secret: String
    public let shortCode: String

    /// Crockford's alphabet: no I, L, O or U, so nothing reads as 1, 0 or a word.
    public static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
    public static let shortCodeLength = 8
    public static let defaultLifetime: Duration = .seconds(600)

    public init(secret: String, shortCode: String) {
        self.secret = secret
        self.shortCode = shortCode
    }

    /// A new code from the system's cryptographic random source.
    public static func generate() -> PairingCode {
        var generator = SystemRandomNumberGenerator()
        let secretBytes = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let short = String((0..<shortCodeLength).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
        return PairingCode(secret: RandomText.base64URL(secretBytes), shortCode: short)
    }

    /// `XXXX-XXXX`, as shown to people.
    public var displayedShortCode: String {
        String(shortCode.prefix(4)) + "-" + String(shortCode.dropFirst(4))
    }

    /// Reads a short code as a person typed it: any case, with or without the
    /// dash or spaces, and Crockford's look-alikes (O→0, I/L→1).
    public static func normalizedShortCode(_ typed: String) -> String? {
        var result = ""
        for character in typed.uppercased() {
            switch character {
            case "-", " ": continue
            case "O": result.append("0")
            case "I", "L": result.append("1")
            default:
                guard alphabet.contains(character) else { return nil }
                result.append(character)
            }
        }
        return result.count == shortCodeLength ? result : nil
    }

    /// Whether text could be a QR secret (22 base64url characters).
    public static func isWellFormedSecret(_ text: String) -> Bool {
        text.count == 22 && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
    }
}
