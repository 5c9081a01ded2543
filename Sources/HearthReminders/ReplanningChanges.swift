import HearthCore

/// Which committed changes can move a planned dose, so the reminder service
/// re-plans for those and not for the stock count that every dose taken
/// updates (re-planning is a whole pass over every schedule).
struct ReplanningChanges {
    /// Changes of these entities can move a planned dose.
    static let entities: Set<String> = ["medication", "schedule", "dose", "household"]

    /// What of each medication the plan depends on, as last seen.
    private var planned: [String: [JSONValue?]] = [:]

    /// Whether `change` calls for a new plan. Medications re-plan when they
    /// start, stop or move to another person; an as-needed dose (it has no
    /// planned time) never does; everything else of the entities above does.
    mutating func replans(_ change: Change) -> Bool {
        switch change.entity {
        case "medication":
            let relevant = [Self.field("active", of: change), Self.field("personId", of: change)]
            defer { planned[change.entityId] = relevant }
            return change.op != .update || planned[change.entityId] != relevant
        case "dose":
            return Self.field("key", of: change) != .null
        default:
            return Self.entities.contains(change.entity)
        }
    }

    private static func field(_ name: String, of change: Change) -> JSONValue? {
        guard case .object(let fields) = change.payload else { return nil }
        return fields[name]
    }
}
