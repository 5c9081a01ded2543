import Foundation
import HearthCore

/// Which changes in the log a live listener may hear of: the change's
/// audience, decided by the permission policy (ChangeAudience, in HearthCore).
enum LiveVisibility {
    static func isVisible(_ change: Change, to caller: Caller) -> Bool {
        guard let actor = caller.policyActor else { return false }
        return isVisible(change, to: actor)
    }

    /// Judged from the entry as it was committed. For a note that is only
    /// half the answer: what is sent of it is decided again from the note as
    /// it is now (NoteAccess; `LiveController`, `SyncController`).
    static func isVisible(_ change: Change, to actor: PermissionPolicy.Actor) -> Bool {
        PermissionPolicy.mayHear(actor, change.audience)
    }

    /// Whether this change changes what the listening person may hear: a
    /// care link of theirs made or undone, or a new role (an admin made a
    /// caregiver hears only her seniors from then on). What they may hear
    /// was read when the stream opened, so it closes, and the client
    /// reconnects from its cursor as who they are now.
    static func changesCircle(_ change: Change, of caller: Caller) -> Bool {
        guard let actor = caller.policyActor else { return false }
        if change.entity == .person, change.entityId == actor.personId.text,
           case .string(let role)? = change.payload.field("role"), role != actor.role.rawValue {
            return true
        }
        // Either side: a senior's circle notes reach her caregivers too.
        guard change.changesCareLinks else { return false }
        return change.entityId.split(separator: ":").contains { $0 == actor.personId.text }
    }

    /// Whether this change may change what `person` may see: a care link of
    /// hers made or undone, on either side, or her own record (a new role,
    /// archived). An open note editor then asks again who she is now.
    static func reshapes(_ change: Change, person: UUID) -> Bool {
        let key = person.text
        if change.entity == .person { return change.entityId == key }
        guard change.changesCareLinks else { return false }
        return change.entityId.split(separator: ":").contains { $0 == key }
    }

    /// Whether this change revokes the listening device itself.
    static func revokes(_ change: Change, deviceId: UUID?) -> Bool {
        guard let deviceId, change.entity == .device, change.entityId == deviceId.text else { return false }
        return change.payload.field("revokedAt") != nil
    }
}
