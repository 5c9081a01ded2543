/// How a Notek client's connection is closed: the WebSocket codes its apps
/// know (Notek's iOS protocol), and Hearth's own for a note that is gone
/// and for too many connections from one address.
public enum NotekCloseCode {
    public static let protocolError: UInt16 = 1002
    public static let invalid: UInt16 = 1007
    public static let tooLarge: UInt16 = 1009
    public static let hubError: UInt16 = 1011
    public static let tryAgain: UInt16 = 1013
    public static let notFound: UInt16 = 4404
    public static let tooMany: UInt16 = 4429
}
