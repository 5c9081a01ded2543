import Foundation
#if canImport(HearthDiscovery)
import HearthDiscovery
#endif

/// A hub found on the home network.
public struct DiscoveredHub: Sendable, Hashable {
    /// The name the hub announces (the household's).
    public var name: String
    /// Where to reach it, for `HearthClient(baseURL:…)`.
    public var baseURL: URL
    public var version: String?
}

/// Finds hubs on the home network with DNS-SD (`_hearth._tcp`): over
/// Avahi on Linux, Bonjour on Apple platforms.
public enum HearthBrowser {
    /// The hubs that answered within `timeout`.
    public static func browse(for timeout: Duration = .seconds(3)) async throws -> [DiscoveredHub] {
        #if canImport(HearthDiscovery)
        return try await HubBrowser.browse(for: timeout).compactMap { hub in
            // An address the hub announced, IPv4 first; the host name when there is none.
            let host = hub.addresses.first { !$0.contains(":") } ?? hub.addresses.first.map { "[\($0)]" } ?? hub.host
            guard let url = URL(string: "http://\(host):\(hub.port)/") else { return nil }
            return DiscoveredHub(name: hub.name, baseURL: url, version: hub.version)
        }
        #elseif canImport(Darwin)
        return try await BonjourBrowser.browse(for: timeout)
        #else
        return []
        #endif
    }
}
