import Foundation
import HearthCore
import Hummingbird

/// Every path of the JSON API in one place. Routes are registered in one
/// `/api/v1` group, each controller in its resource's group (`api.group(.alerts)`),
/// and the links the hub hands out (`Location`, the sync snapshot) are
/// built from the same names, so a path is spelled once. Paths are part of
/// the contract: devices depend on them (Web/openapi.yaml).
enum APIPath {
    static let root = "/api/v1"

    /// A resource's path under `root`.
    enum Resource: String, Sendable {
        case health, household, pairing, people, devices, notes, medications, today, doses, clock, alerts, sos, sync, live, games
        case invitations = "pairing/invitations"
        case alertApps = "alert-apps"
        case openAPI = "openapi.yaml"
    }

    /// The path a client requests: `link(.alerts, id.text, "ack")` is
    /// `/api/v1/alerts/<id>/ack`.
    static func link(_ resource: Resource, _ rest: String...) -> String {
        ([root, resource.rawValue] + rest).joined(separator: "/")
    }

    static func link(_ resource: Resource, _ id: UUID, _ rest: String...) -> String {
        ([root, resource.rawValue, id.text] + rest).joined(separator: "/")
    }
}

extension RouterMethods {
    /// The group a resource's routes are registered in.
    func group(_ resource: APIPath.Resource) -> RouterGroup<Context> {
        group(RouterPath(resource.rawValue))
    }
}
