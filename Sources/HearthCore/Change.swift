import Foundation

/// One committed mutation, as it is kept in the change log and sent to every
/// listening client. `seq` is assigned by the store and only ever grows.
public struct Change: Sendable, Hashable, Encodable {
    public enum Operation: String, Sendable, Encodable {
        case create, update, delete
    }

    public var seq: Int64
    /// What kind of thing changed.
    public var entity: ChangeEntity
    public var entityId: String
    public var op: Operation
    public var payload: JSONValue
    /// Where the change came from: "hub", "cli", "device:<id>"… (the API
    /// and the log's column call it `actor`; in Swift an actor is the
    /// `PermissionPolicy.Actor` who acts).
    public var origin: String
    public var time: Date
    /// Who may hear of it, decided once from the change as committed (a
    /// payload rewritten for one listener keeps it).
    public let audience: ChangeAudience

    /// What the live stream sends of a change: the audience is the hub's own.
    enum CodingKeys: String, CodingKey {
        case seq, entity, entityId, op, payload, origin = "actor", time
    }

    public init(seq: Int64, entity: ChangeEntity, entityId: String, op: Operation, payload: JSONValue, origin: String, time: Date) {
        self.seq = seq
        self.entity = entity
        self.entityId = entityId
        self.op = op
        self.payload = payload
        self.origin = origin
        self.time = time
        self.audience = ChangeAudience(entity, payload: payload)
    }
}
