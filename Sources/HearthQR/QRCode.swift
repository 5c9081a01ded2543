import CQREncode
import Foundation

/// A QR code's module matrix, encoded by libqrencode (the reference C encoder)
/// and copied into Swift, so it is a plain value that can cross actors.
///
/// Usage:
///
///     let code = try QRCode(encoding: "http://192.168.1.20:8080/pair#secret")
///     print(TerminalQR.halfBlocks(code), terminator: "")   // `hearth pair`
///     print(TerminalQR.ascii(code), terminator: "")        // `hearth pair --ascii`
///     let svg = SVGQR.render(code, title: "Pairing code")  // the Household page
public struct QRCode: Sendable, Equatable {
    /// Modules per side, without a quiet zone (21 for version 1, +4 per version).
    public let size: Int
    /// The QR version (1…40) libqrencode chose: the smallest that holds the text.
    public let version: Int
    /// Row-major, `true` = dark.
    private let modules: [Bool]

    /// Encodes `text` as 8-bit bytes (UTF-8), case kept: pairing URLs hold
    /// lowercase and base64url characters, which alphanumeric mode cannot.
    /// The default level M survives about 15% damage (a smudged screen) and
    /// keeps a pairing URL at version 4, small enough for an 80×24 terminal.
    public init(encoding text: String, errorCorrection: ErrorCorrection = .medium) throws(QREncodingError) {
        // libqrencode reads a C string, so an empty text or a NUL inside it
        // would be refused or silently cut short; say so instead.
        guard !text.isEmpty else { throw .empty }
        guard !text.utf8.contains(0) else { throw .containsNUL }
        errno = 0
        guard let code = QRcode_encodeString(text, 0, errorCorrection.level, QR_MODE_8, 1) else {
            // ERANGE: more data than version 40 holds; EINVAL: input it refuses.
            if errno == ERANGE || errno == EINVAL { throw .tooLong(bytes: text.utf8.count) }
            throw .failed(errno: errno)
        }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        let data = UnsafeBufferPointer(start: code.pointee.data, count: width > 0 ? width * width : 0)
        guard width > 0, data.count == width * width else { throw .failed(errno: 0) }
        size = width
        version = Int(code.pointee.version)
        // Bit 0 of each byte is the module's colour (1 = dark); the other bits
        // say what the module is for (finder, timing, data …), which we don't need.
        modules = data.map { $0 & 1 == 1 }
    }

    /// Whether the module at column `x`, row `y` is dark. Anything outside the
    /// symbol is light, so renderers can draw the quiet zone by asking too.
    public func isDark(x: Int, y: Int) -> Bool {
        guard x >= 0, y >= 0, x < size, y < size else { return false }
        return modules[y * size + x]
    }
}
