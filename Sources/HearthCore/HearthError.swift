/// Every failure a user or device can cause, in one place. HearthServer maps
/// these to HTTP once; the CLI prints `description` as one line.
public enum HearthError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Input that breaks a rule; `fields` names each offending field.
    case invalid(fields: [String: String])
    case notFound(what: String)
    case conflict(String)
    /// The person may see this but not do it.
    case forbidden(String)
    /// No paired device made the request (no token, or one of a removed device).
    case unpaired
    /// A device paired from a senior's invitation that an admin has not
    /// approved yet (`pairing.seniorInvitesNeedApproval`).
    case awaitingApproval
    /// A live cursor newer than anything in the log (for example after a restore).
    case cursorAhead(requested: Int64, latest: Int64)
    case tooLarge(limit: Int)
    /// A sync cursor from before the log was compacted (or from a hub since
    /// restored from an older backup): the device must start again from a snapshot.
    case cursorExpired(requested: Int64)
    /// A safety limit would be broken, such as an as-needed dose taken too soon.
    case limitReached(AsNeededRefusal)

    public var description: String {
        switch self {
        case .invalid(let fields):
            let parts = fields.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
            return "Invalid input: " + parts.joined(separator: "; ")
        case .notFound(let what):
            return "\(what) was not found"
        case .conflict(let message), .forbidden(let message):
            return message
        case .unpaired:
            return "This device is not paired with the hub (or was removed); ask the household admin to run: sudo hearth pair"
        case .awaitingApproval:
            return "This device was paired from a senior's invitation; an admin of the household must approve it before it can be used"
        case .cursorAhead(let requested, let latest):
            return "Cursor \(requested) is ahead of the change log (latest is \(latest)); resync from 0"
        case .limitReached(let refusal):
            return refusal.description
        case .tooLarge(let limit):
            return "The request is larger than \(limit) bytes"
        case .cursorExpired(let requested):
            return "Cursor \(requested) is older than the change log the hub keeps; start again from GET /api/v1/sync/snapshot"
        }
    }
}
