import Foundation

extension String {
    /// The text in `bytes`, or nil when they are not UTF-8 (never repaired
    /// with U+FFFD: a damaged name or note must be refused, not guessed).
    ///
    /// `String(validating:as:)` is the fast path but needs macOS 15 and
    /// iOS 18; HearthKit also runs on macOS 14 and iOS 17, where Foundation
    /// validates instead.
    public init?<Bytes: Collection>(validUTF8 bytes: Bytes) where Bytes.Element == UInt8 {
        if #available(macOS 15, iOS 18, *) {
            guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
            self = text
        } else {
            guard let text = String(bytes: bytes, encoding: .utf8) else { return nil }
            self = text
        }
    }
}
