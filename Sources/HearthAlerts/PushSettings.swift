import Foundation

/// Push through an Internet ntfy server (`push.*` in hearth.yaml), for
/// caregivers away from home: off until the household turns it on, since
/// it is the one thing that sends words about the household out of it.
public struct PushSettings: Sendable, Equatable {
    /// What the Internet server may read of an alert.
    public enum Content: String, Sendable, CaseIterable {
        /// "SOS from home: call Babcia Zosia", with a Call button: the kind and whom to call, nothing more.
        case kindOnly = "kind-only"
        /// The alert's whole sentence, as the phone at home shows it.
        case full
    }

    public var enabled: Bool
    /// The server's base URL, no trailing slash: `https://ntfy.sh`, or the family's own.
    public var server: String
    public var content: Content

    public static let defaultServer = "https://ntfy.sh"

    public init(enabled: Bool = false, server: String = PushSettings.defaultServer, content: Content = .kindOnly) {
        self.enabled = enabled
        self.server = server
        self.content = content
    }

    /// An http(s) URL with a host and nothing after its path, read as people
    /// write it (a trailing slash dropped); nil for anything else.
    public static func serverURL(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.count <= 200, let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty,
              url.query == nil, url.fragment == nil, url.user == nil, url.password == nil
        else { return nil }
        var kept = trimmed
        while kept.hasSuffix("/") { kept.removeLast() }
        return kept
    }

    /// Her topic's full URL on the server: what she subscribes to.
    public func topicURL(_ topic: String) -> String { "\(server)/\(topic)" }
}
