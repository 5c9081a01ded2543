/// One character of a Notek document with its position: on the wire
/// `u8 len`, `len` UTF-8 bytes of exactly one Unicode scalar, then the PID.
public struct NotekAtom: Hashable, Sendable {
    public var character: Unicode.Scalar
    public var position: PositionID

    public init(character: Unicode.Scalar, position: PositionID) {
        self.character = character
        self.position = position
    }
}
