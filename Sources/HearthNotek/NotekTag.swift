/// The first byte of every Notek frame. Legacy and sync tags overlap (0-3),
/// which is why decoding needs the connection's kind.
enum NotekTag {
    static let greet: UInt8 = 0x00
    static let newSession: UInt8 = 0x01
    static let legacyInsert: UInt8 = 0x02
    static let legacyDelete: UInt8 = 0x03

    static let syncList: UInt8 = 0
    static let pull: UInt8 = 1
    static let upsert: UInt8 = 2
    static let rename: UInt8 = 3
    static let deleteDocument: UInt8 = 4
    static let documentList: UInt8 = 32
    static let document: UInt8 = 33

    static let sessionStart: UInt8 = 64
    static let insert: UInt8 = 65
    static let delete: UInt8 = 66
    static let nameChange: UInt8 = 67

    /// Tags some client message has, on some kind of connection.
    static func isFromClient(_ tag: UInt8) -> Bool {
        (0...4).contains(tag) || (64...67).contains(tag)
    }

    /// Tags some hub message has, on some kind of connection.
    static func isFromHub(_ tag: UInt8) -> Bool {
        (1...3).contains(tag) || (32...33).contains(tag) || (65...67).contains(tag)
    }
}
