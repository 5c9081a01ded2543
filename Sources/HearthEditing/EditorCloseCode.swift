/// How a note's editing socket (web editors and, mapped, Notek clients) is
/// closed, and why: each code is shown to the person as a sentence by the
/// web editor, and tells a device whether to reconnect.
public enum EditorCloseCode {
    /// A message that is not one the protocol knows.
    public static let badFrame: UInt16 = 4400
    /// The device was removed from the household.
    public static let revoked: UInt16 = 4401
    /// Typing into a note this person may read but not change (shared for
    /// reading only); nothing of it is kept.
    public static let readOnly: UInt16 = 4403
    /// The note is gone, or this person may no longer read it.
    public static let gone: UInt16 = 4404
    /// An operation naming what the hub does not have, or could never apply.
    public static let refused: UInt16 = 4409
    /// The note would exceed 1 MiB of text.
    public static let tooLarge: UInt16 = 4413
    /// More messages than a typist sends.
    public static let tooMany: UInt16 = 4429
    /// The hub could not store the typing; the editor resends it.
    public static let storage: UInt16 = 1011
    /// Someone lost the right to type as their typing was stored: nothing
    /// of that round was stored; reconnect and send it again.
    public static let restart: UInt16 = 1012
}
