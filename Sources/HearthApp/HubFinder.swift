import HearthDiscovery

/// `hearth discover`: the hubs on the LAN, as text an admin can read.
public enum HubFinder {
    /// Reads `--timeout` values such as `3s` or `1m` (1 s to 5 min).
    public static func parseTimeout(_ text: String) -> Duration? {
        guard let unit = text.last, let number = Int(text.dropLast()), number > 0 else { return nil }
        let seconds = unit == "s" ? number : (unit == "m" ? number * 60 : 0)
        guard (1...300).contains(seconds) else { return nil }
        return .seconds(seconds)
    }

    /// Browses for `timeout`; throws a `DNSSDError` when avahi-daemon cannot be reached.
    public static func listing(timeout: Duration) async throws -> String {
        let hubs = try await HubBrowser.browse(type: "_hearth._tcp", for: timeout)
        return describe(hubs)
    }

    static func describe(_ hubs: [FoundHub]) -> String {
        guard !hubs.isEmpty else {
            return "No hub found. Is the hub running, and is this machine on the same network (subnet) as it?\n"
        }
        return hubs.map { hub in
            let addresses = hub.addresses.isEmpty ? "(none resolved)" : hub.addresses.joined(separator: ", ")
            let open = hub.addresses.first.map { address in
                let host = address.contains(":") ? "[\(address)]" : address
                return "\n  open:      http://\(host):\(hub.port)/"
            } ?? ""
            return """
                \(hub.name)
                  host:      \(hub.host)
                  addresses: \(addresses)
                  port:      \(hub.port)
                  version:   \(hub.version ?? "unknown")\(open)

                """
        }.joined()
    }
}
