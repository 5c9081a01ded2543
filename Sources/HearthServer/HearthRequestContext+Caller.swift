import HearthCore
import Hummingbird

extension HearthRequestContext {
    /// The paired person acting, or a 401 for an unpaired caller.
    @discardableResult
    func requirePaired() throws -> PermissionPolicy.Actor {
        guard let actor = caller.policyActor else { throw awaitingApproval ? HearthError.awaitingApproval : HearthError.unpaired }
        return actor
    }

    /// Checks the policy (`PermissionPolicy.require`): what the caller may
    /// not even see is unknown (404), what they may see but not do is 403.
    @discardableResult
    func require(_ action: PermissionPolicy.Action, _ resource: PermissionPolicy.Resource, what: String) throws -> PermissionPolicy.Actor {
        let actor = try requirePaired()
        try Self.require(actor, action, resource, what: what)
        return actor
    }

    /// The same check for an actor already known.
    static func require(_ actor: PermissionPolicy.Actor, _ action: PermissionPolicy.Action, _ resource: PermissionPolicy.Resource, what: String) throws {
        try PermissionPolicy.require(actor, action, resource, what: what)
    }
}
