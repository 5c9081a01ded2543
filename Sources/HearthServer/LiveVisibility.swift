import Foundation
import HearthCore

/// Which changes in the log a live listener may hear of, by the permission
/// policy. An entity this hub does not know how to judge is not sent.
enum LiveVisibility {
    static func isVisible(_ change: Change, to caller: Caller) -> Bool {
        guard let actor = caller.policyActor else { return false }
        switch change.entity {
        case "household":
            return PermissionPolicy.decide(actor, .view, .household) == .allow
        case "person", "careLink":
            return true  // names and who looks after whom are shown across the household
        case "device":
            guard case .string(let owner)? = change.payload.field("personId"), let ownerId = UUID(uuidString: owner) else {
                return actor.role == .admin
            }
            return PermissionPolicy.decide(actor, .view, .device(owner: ownerId)) == .allow
        case "pairingCode":
            return actor.role == .admin
        default:
            return false
        }
    }

    /// Whether this change revokes the listening device itself.
    static func revokes(_ change: Change, deviceId: UUID?) -> Bool {
        guard let deviceId, change.entity == "device", change.entityId == deviceId.uuidString.lowercased() else { return false }
        return change.payload.field("revokedAt") != nil
    }
}

extension JSONValue {
    /// A field of an object payload.
    func field(_ name: String) -> JSONValue? {
        if case .object(let object) = self { return object[name] }
        return nil
    }
}
