/// One service the hub announces on the LAN, e.g. `Home (Hearth)` of type
/// `_hearth._tcp` on port 8080.
public struct Advertisement: Sendable, Equatable {
    /// The instance name people see in a browser's list.
    public var name: String
    /// The service type, e.g. `_http._tcp`.
    public var type: String
    public var port: UInt16
    public var txt: TXTRecord

    /// DNS labels are at most 63 bytes (RFC 6763 §4.1.1).
    public static let maximumNameBytes = 63

    public init(name: String, type: String, port: UInt16, txt: TXTRecord = TXTRecord([])) {
        self.name = name
        self.type = type
        self.port = port
        self.txt = txt
    }

    /// `<household name> (Hearth)`, shortening the household's name (never
    /// the suffix, and never inside a character) so the whole fits one label.
    public static func instanceName(household: String, suffix: String = " (Hearth)") -> String {
        let budget = maximumNameBytes - suffix.utf8.count
        var name = ""
        for character in household {
            guard name.utf8.count + String(character).utf8.count <= budget else { break }
            name.append(character)
        }
        return name.trimmingTrailingSpaces() + suffix
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var copy = self
        while copy.last?.isWhitespace == true { copy.removeLast() }
        return copy
    }
}
