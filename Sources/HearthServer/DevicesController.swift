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

        init(_ device: Device, current: Bool) {
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

    func addRoutes(to router: Router<HearthRequestContext>) {
        router.get("/api/v1/devices") { _, context -> [DeviceBody] in
            let actor = try context.requirePaired()
            return try await store.devices(includingRevoked: false)
                .filter { PermissionPolicy.decide(actor, .view, .device(owner: $0.personId)) == .allow }
                .map { DeviceBody($0, current: $0.id == context.caller.deviceId) }
        }
        router.delete("/api/v1/devices/{id}") { _, context -> Response in
            try context.requirePaired()
            guard let id = context.parameters.get("id").flatMap(UUID.init(text:)),
                  let device = try await store.devices(includingRevoked: false).first(where: { $0.id == id })
            else { throw HearthError.notFound(what: "That device") }
            try context.require(.delete, .device(owner: device.personId), what: "That device")
            try await store.revokeDevice(id: id, by: context.caller.actorName)
            return Response(status: .noContent)
        }
    }
}
