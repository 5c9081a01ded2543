import Foundation

/// Who is making a request: nobody yet (no valid device token), or a paired
/// device acting as its person.
public enum Caller: Sendable, Equatable {
    case unpaired
    case device(id: UUID, as: PermissionPolicy.Actor)

    /// How the caller is named in the change log's `actor` column.
    public var origin: String {
        switch self {
        case .unpaired: "unpaired"
        case .device(let id, _): "device:\(id.text)"
        }
    }

    /// The person acting, for the permission policy; nil when unpaired.
    public var policyActor: PermissionPolicy.Actor? {
        if case .device(_, let actor) = self { return actor }
        return nil
    }

    public var deviceId: UUID? {
        if case .device(let id, _) = self { return id }
        return nil
    }
}
