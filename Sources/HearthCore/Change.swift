import Foundation

/// One committed mutation, as it is kept in the change log and sent to every
/// listening client. `seq` is assigned by the store and only ever grows.
public struct Change: Sendable, Hashable, Codable {
    public enum Operation: String, Sendable, Codable {
        case create, update, delete
    }

    public var seq: Int64
    /// What kind of thing changed, in the household's words: "household", "note", "dose"…
    public var entity: String
    public var entityId: String
    public var op: Operation
    public var payload: JSONValue
    /// Who made the change: "hub", "cli", later "device:<id>".
    public var actor: String
    public var time: Date

    public init(seq: Int64, entity: String, entityId: String, op: Operation, payload: JSONValue, actor: String, time: Date) {
        self.seq = seq
        self.entity = entity
        self.entityId = entityId
        self.op = op
        self.payload = payload
        self.actor = actor
        self.time = time
    }
}
