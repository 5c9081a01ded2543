import Foundation
import HearthCore

/// Which changes in the log a live listener may hear of, by the permission
/// policy. An entity this hub does not know how to judge is not sent.
enum LiveVisibility {
    static func isVisible(_ change: Change, to caller: Caller) -> Bool {
        guard let actor = caller.policyActor else { return false }
        return isVisible(change, to: actor)
    }

    /// Judged from the entry as it was committed. For a note that is only
    /// half the answer: what is sent of it is decided again from the note as
    /// it is now (NoteAccess; `LiveController`, `SyncController`).
    static func isVisible(_ change: Change, to actor: PermissionPolicy.Actor) -> Bool {
        switch change.entity {
        case "household":
            return PermissionPolicy.decide(actor, .view, .household) == .allow
        case "person", "careLink":
            return true  // names and who looks after whom are shown across the household
        case "device":
            guard case .string(let owner)? = change.payload.field("personId"), let ownerId = UUID(text: owner) else {
                return actor.role == .admin
            }
            return PermissionPolicy.decide(actor, .view, .device(owner: ownerId)) == .allow
        case "pairingCode":
            return actor.role == .admin
        case "note":
            guard case .string(let owner)? = change.payload.field("ownerId"), let ownerId = UUID(text: owner),
                  case .string(let raw)? = change.payload.field("visibility"),
                  let visibility = PermissionPolicy.NoteVisibility(rawValue: raw)
            else { return false }
            if PermissionPolicy.decide(actor, .view, .note(owner: ownerId, visibility: visibility)) == .allow { return true }
            // A shared note made private: those who saw it hear that it is gone.
            return change.payload.field("wasShared") == .bool(true)
                && PermissionPolicy.decide(actor, .view, .note(owner: ownerId, visibility: .shared)) == .allow
        case "medication", "schedule":
            guard let senior = change.payload.personId else { return false }
            return PermissionPolicy.decide(actor, .view, .medications(of: senior)) == .allow
        case "dose":
            guard let senior = change.payload.personId else { return false }
            return PermissionPolicy.decide(actor, .view, .care(of: senior)) == .allow
        case "alert":
            // The hub's own alerts (its clock) have no senior.
            guard let senior = change.payload.personId else {
                return change.payload.field("personId") == .null && AlertsController.seesHubAlerts(actor)
            }
            return PermissionPolicy.decide(actor, .view, .care(of: senior)) == .allow
        default:
            return false
        }
    }

    /// Whether this change revokes the listening device itself.
    static func revokes(_ change: Change, deviceId: UUID?) -> Bool {
        guard let deviceId, change.entity == "device", change.entityId == deviceId.text else { return false }
        return change.payload.field("revokedAt") != nil
    }
}

extension JSONValue {
    /// The senior a care payload (medication, schedule, dose, alert) is about.
    var personId: UUID? {
        guard case .string(let text)? = field("personId") else { return nil }
        return UUID(text: text)
    }
}
