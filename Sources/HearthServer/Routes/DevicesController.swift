import Foundation
import HearthCore
import HearthStore
import Hummingbird

/// `/api/v1/devices`: paired devices; admins see and revoke all, others their own.
struct DevicesController {
    let store: HearthStore

    struct DeviceBody: ResponseEncodable {
        var id: String
        var personId: String
        var name: String
        var createdAt: Date
        var lastSeenAt: Date?
        var revoked: Bool
        /// Whether this is the device making the request.
        var current: Bool
        /// The person whose device made its pairing code; absent when it was
        /// paired at the hub's console.
        var pairedBy: String?
        /// Paired from a senior's invitation, waiting for an admin's approval.
        var awaitingApproval: Bool

        init(_ device: Device, current: Bool) {
            awaitingApproval = device.awaitingApproval
            id = device.id.text
            personId = device.personId.text
            name = device.name
            createdAt = device.createdAt
            lastSeenAt = device.lastSeenAt
            revoked = device.revokedAt != nil
            self.current = current
            pairedBy = device.pairedBy?.text
        }
    }

    func addRoutes(to api: RouterGroup<HearthRequestContext>) {
        let devices = api.group(.devices)
        devices.get { _, context -> [DeviceBody] in
            let actor = try context.requirePaired()
            return try await store.devices(includingRevoked: false)
                .filter { PermissionPolicy.decide(actor, .view, .device(owner: $0.personId)) == .allow }
                .map { DeviceBody($0, current: $0.id == context.caller.deviceId) }
        }
        devices.post("{id}/approve") { _, context -> Response in
            let actor = try context.requirePaired()
            guard let id = context.parameters.get("id").flatMap(UUID.init(text:)) else { throw HearthError.notFound(what: "That device") }
            try await store.approveDevice(id: id, as: actor, by: context.caller.origin)
            return Response(status: .noContent)
        }
        devices.delete("{id}") { _, context -> Response in
            let actor = try context.requirePaired()
            guard let id = context.parameters.get("id").flatMap(UUID.init(text:)) else { throw HearthError.notFound(what: "That device") }
            // Who may is decided by the store, on the device as its write reads it.
            try await store.revokeDevice(id: id, as: actor, by: context.caller.origin)
            return Response(status: .noContent)
        }
    }
}
