import Foundation
import HearthCore

/// Where an alert kind's webhook goes: an `http://` address on the LAN
/// (Home Assistant's `/api/webhook/…`, a local ntfy topic). Plain HTTP only:
/// the hub has no Internet and no certificates to check a LAN device's TLS
/// against, and with no webhook configured nothing leaves the hub.
public struct WebhookTarget: Sendable, Equatable {
    public var host: String
    public var port: Int
    /// Path and query, e.g. `/api/webhook/hearth-sos`.
    public var target: String

    /// Reads a configured address, or says in one line what is wrong with it.
    public init(_ text: String) throws(WebhookTargetProblem) {
        guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased() else {
            throw WebhookTargetProblem("must be an address such as http://homeassistant.local:8123/api/webhook/hearth")
        }
        guard scheme == "http" else {
            throw WebhookTargetProblem("must start with http:// (webhooks stay on the home network; https is not supported)")
        }
        guard let host = url.host, !host.isEmpty else { throw WebhookTargetProblem("must name a host, e.g. http://192.168.1.20/") }
        guard url.user == nil, url.password == nil else {
            throw WebhookTargetProblem("must not hold a user name or password; put a secret in the path instead")
        }
        let port = url.port ?? 80
        guard (1...65535).contains(port) else { throw WebhookTargetProblem("has port \(port), which is not from 1 to 65535") }
        self.host = host
        self.port = port
        let path = url.percentEncodedPath.isEmpty ? "/" : url.percentEncodedPath
        target = path + (url.percentEncodedQuery.map { "?" + $0 } ?? "")
    }

    /// The Host header: the name and, when not 80, the port.
    var hostHeader: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port == 80 ? name : "\(name):\(port)"
    }
}

public struct WebhookTargetProblem: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
