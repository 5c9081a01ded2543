import CQREncode
import Foundation

/// A QR code's module matrix, encoded by libqrencode (the reference C encoder).
public struct QRCode: Sendable, Equatable {
    public enum EncodingError: Error, CustomStringConvertible, Equatable {
        case tooLong(characters: Int)
        case failed(errno: Int32)

        public var description: String {
            switch self {
            case .tooLong(let count): "\(count) characters are too many for a QR code"
            case .failed(let code): "the QR encoder failed (errno \(code))"
            }
        }
    }

    /// Modules per side.
    public let size: Int
    private let modules: [Bool]

    /// Encodes text in 8-bit mode, case kept (pairing URLs hold lowercase
    /// base64url), with error correction M: readable with a quarter of it
    /// smudged, and still small enough for an 80×24 terminal.
    public init(encoding text: String) throws(EncodingError) {
        errno = 0
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else {
            if errno == ERANGE || errno == EINVAL { throw .tooLong(characters: text.count) }
            throw .failed(errno: errno)
        }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        size = width
        // Bit 0 of each byte is the module's colour: 1 dark, 0 light.
        modules = (0..<(width * width)).map { code.pointee.data[$0] & 1 == 1 }
    }

    /// Whether the module at column `x`, row `y` is dark; outside is light (quiet zone).
    public func isDark(x: Int, y: Int) -> Bool {
        guard x >= 0, y >= 0, x < size, y < size else { return false }
        return modules[y * size + x]
    }
}
