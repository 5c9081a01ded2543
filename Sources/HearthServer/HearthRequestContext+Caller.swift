import HearthCore
import Hummingbird

extension HearthRequestContext {
    /// The paired person acting, or a 401 for an unpaired caller.
    func requirePaired() throws -> PermissionPolicy.Actor {
        guard let actor = caller.policyActor else {
            throw ProblemError(.unauthorized, type: "unpaired",
                               detail: "This device is not paired with the hub (or was removed); ask the household admin to run: sudo hearth pair")
        }
        return actor
    }

    /// Checks the policy. What the caller may not even see is reported as
    /// unknown (404), so IDs of others' things leak nothing; what they may see
    /// but not change is 403.
    @discardableResult
    func require(_ action: PermissionPolicy.Action, _ resource: PermissionPolicy.Resource, what: String) throws -> PermissionPolicy.Actor {
        let actor = try requirePaired()
        try Self.require(actor, action, resource, what: what)
        return actor
    }

    /// The same check for an actor already known, such as one decided inside
    /// a write transaction once the resource has been read there.
    static func require(_ actor: PermissionPolicy.Actor, _ action: PermissionPolicy.Action, _ resource: PermissionPolicy.Resource, what: String) throws {
        guard PermissionPolicy.decide(actor, action, resource) == .allow else {
            if PermissionPolicy.decide(actor, .view, resource) == .deny {
                throw HearthError.notFound(what: what)
            }
            throw ProblemError(.forbidden, type: "forbidden", detail: "Your role in the household does not allow this")
        }
    }
}
