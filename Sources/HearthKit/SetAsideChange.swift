import Foundation

/// A change made on this device that the hub refused as it stands — it could
/// not read it (an app newer than its hub, say) or its `opId` had been used
/// for something else. Sent again it would be refused again and hold back
/// everything queued after it, so it is set aside: the mirror shows what the
/// hub has instead, and the app can tell the person what did not go through.
public struct SetAsideChange: Sendable, Hashable, Identifiable {
    public var id: String { opId }
    public var opId: String
    /// `medication`, `note`, `noteText`, `dose`…
    public var entity: String
    public var entityId: String
    /// The hub's words.
    public var reason: String
    public var setAsideAt: Date
}
