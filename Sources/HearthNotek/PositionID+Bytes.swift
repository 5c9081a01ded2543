/// A position identifier on its own, as stored and sent: `u8 depth`, then
/// `u32 ident` (little-endian) and `u8 site` per element.
extension PositionID {
    /// Empty or deeper-than-`maximumDepth` identifiers are written as they are
    /// (at most 255 elements) and then refused by every decoder; `between`
    /// never makes one.
    public var bytes: [UInt8] {
        var writer = NotekByteWriter()
        writer.positionID(self)
        return writer.bytes
    }

    /// Exactly one encoded identifier, with nothing after it.
    public init(bytes: [UInt8]) throws(NotekProtocolError) {
        var reader = NotekByteReader(bytes)
        let position = try reader.positionID()
        try reader.finish()
        self = position
    }
}
