/// Fixed-width decimal numbers in ASCII, written and read byte by byte.
/// Every dose and medication carries several dates and times, each written
/// into a change payload and a response and read back from its row; the
/// general `String(Int)` and `split`/`Int(_:)` round trips allocate at every
/// step and showed on the profile of recording a dose.
enum ASCIIDigits {
    /// Appends `number` (not negative) zero-padded to at least `width` digits.
    static func append(_ number: Int, width: Int, to bytes: inout [UInt8]) {
        var place = 1
        var digits = 1
        while place <= number / 10 { place *= 10; digits += 1 }
        for _ in digits..<max(width, digits) { bytes.append(UInt8(ascii: "0")) }
        while place > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(number / place % 10))
            place /= 10
        }
    }

    /// The number written by exactly the bytes in `range` of `bytes`, all
    /// of them ASCII digits; nil otherwise.
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
        guard !range.isEmpty, range.upperBound <= bytes.count else { return nil }
        var value = 0
        for index in range {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            value = value * 10 + Int(digit)
        }
        return value
    }
}
