import Foundation

/// Bytes as the shared vectors write them (Tests/vectors): lowercase hex,
/// two digits a byte, no separators.
public enum Hex {
    public static func text(_ bytes: some Sequence<UInt8>) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    /// The bytes of `hex`; a vector file's mistake stops the test there.
    public static func bytes(_ hex: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return bytes
    }
}
