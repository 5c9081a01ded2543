import HearthNotek
import HearthTestSupport
import Testing

@Suite struct RoundTripTests {
    /// Seeds 1-4: random messages of every kind decode to themselves, from
    /// exactly the frame they were encoded to.
    @Test(arguments: 1...4 as ClosedRange<UInt64>)
    func encodedMessagesDecodeToThemselves(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        for _ in 0..<1_000 {
            let message = RandomNotek.message(using: &random)
            let frame = message.bytes
            for (direction, kind) in message.decodings {
                let decoded = try direction.decode(frame, on: kind)
                expectEqual(decoded, message, "\(direction) on \(kind)")
                expectEqual(decoded.bytes, frame)
            }
        }
    }
}
