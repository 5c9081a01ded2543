/// Why a text could not become a QR code.
public enum QREncodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// More than the largest QR code (version 40) holds at the chosen level.
    case tooLong(bytes: Int)
    /// Nothing to encode.
    case empty
    /// A NUL character, which the C encoder would take as the end of the text.
    case containsNUL
    /// libqrencode failed for another reason, such as running out of memory.
    case failed(errno: Int32)

    public var description: String {
        switch self {
        case .tooLong(let bytes): "text too long for a QR code (\(bytes) bytes)"
        case .empty: "no text to put in a QR code"
        case .containsNUL: "a QR code's text cannot contain a NUL character"
        case .failed(let code): "the QR encoder failed (errno \(code))"
        }
    }
}
