/// A hub found on the LAN by browsing for `_hearth._tcp`.
public struct FoundHub: Sendable, Equatable {
    /// The instance name, e.g. `Home (Hearth)`.
    public var name: String
    /// The host's mDNS name, e.g. `kitchen-pi.local`.
    public var host: String
    /// IPv4 first, then IPv6, as text.
    public var addresses: [String]
    public var port: Int
    /// The TXT record's `v`, `id` and `api`.
    public var version: String?
    public var householdID: String?
    public var apiPath: String?

    public init(name: String, host: String, addresses: [String], port: Int,
                version: String?, householdID: String?, apiPath: String?) {
        self.name = name
        self.host = host
        self.addresses = addresses
        self.port = port
        self.version = version
        self.householdID = householdID
        self.apiPath = apiPath
    }
}
