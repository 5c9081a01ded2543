import Foundation
import HearthCore
import HearthStore
import Hummingbird

/// One entry of `GET /api/v1/household/audit`: who changed the household's
/// shape, when, and what (the change as logged, people named by name).
struct AuditEntryBody: ResponseEncodable {
    var seq: Int64
    var time: Date
    /// The person whose device did it; null from the terminal or the hub itself.
    var actorName: String?
    var viaTerminal: Bool
    var entity: String
    var op: String
    var entityId: String
    var summary: JSONValue

    init(_ entry: HouseholdAuditEntry) {
        seq = entry.seq
        time = entry.time
        actorName = entry.actorName
        viaTerminal = entry.viaTerminal
        entity = entry.entity.rawValue
        op = entry.op.rawValue
        entityId = entry.entityId
        summary = entry.summary
    }
}
