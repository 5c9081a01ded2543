import HearthNotek
import HearthTestSupport
import Testing

/// Random and damaged frames, decoded every way there is.
@Suite struct FuzzTests {
    /// Fixed so a failure can be repeated; the seed is in the test's name too.
    static let seed: UInt64 = 0x4E4F_5445_4B

    /// A frame: random bytes half the time, a damaged valid message (from
    /// `valid`, made once because making them costs more than decoding) otherwise.
    static func frame(from valid: [[UInt8]], using random: inout SeededRandom) -> [UInt8] {
        if Bool.random(using: &random) {
            var frame = (0..<Int.random(in: 0...64, using: &random)).map { _ in UInt8.random(in: 0 ... .max, using: &random) }
            // Often start with a tag that exists, so the random half gets past the first byte.
            let tags: [UInt8] = [0, 1, 2, 3, 4, 32, 33, 64, 65, 66, 67]
            if !frame.isEmpty, Bool.random(using: &random), let tag = tags.randomElement(using: &random) { frame[0] = tag }
            return frame
        }
        var frame = valid.randomElement(using: &random) ?? []
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            let index = Int.random(in: 0...frame.count, using: &random)
            switch Int.random(in: 0..<4, using: &random) {
            case 0 where index < frame.count: frame[index] ^= 1 << UInt8.random(in: 0...7, using: &random)
            case 1: frame.insert(UInt8.random(in: 0 ... .max, using: &random), at: index)
            case 2 where index < frame.count: frame.remove(at: index)
            default: frame.removeLast(frame.count - index)
            }
        }
        return frame
    }

    @Test func seed0x4E4F54454B_hundredThousandFramesNeverCrashAndReencodeExactly() {
        var random = SeededRandom(seed: Self.seed)
        let valid = (0..<5_000).map { _ in RandomNotek.message(using: &random).bytes }
        var failures: [String] = []
        var decoded = 0
        for number in 0..<100_000 {
            let frame = Self.frame(from: valid, using: &random)
            for direction in Direction.allCases {
                for kind in allKinds {
                    guard let message = try? direction.decode(frame, on: kind) else { continue }
                    decoded += 1
                    // Decoding is strict, so the frame is the one canonical encoding.
                    let encoded = message.bytes
                    let again = try? direction.decode(encoded, on: kind)
                    if encoded != frame || again != message || (kind != .undecided && message.kind != kind) {
                        failures.append("frame \(number) \(direction) on \(kind): \(frame)")
                    }
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.count) failures, first: \(failures.prefix(3))")
        // The damaged half must reach deep into the decoders, not die at the tag.
        #expect(decoded > 10_000)
    }
}
