import HearthCore

/// Which committed changes can move a planned dose, so the reminder service
/// re-plans for those and not for the stock count that every dose taken
/// updates (re-planning is a whole pass over every schedule).
struct ReplanningChanges {
    /// Whether changes of this kind can move a planned dose: a medication,
    /// its schedules, its doses, and the household's time zone and reminder
    /// settings.
    static func mayReplan(_ entity: ChangeEntity) -> Bool {
        switch entity {
        case .medication, .schedule, .dose, .household: true
        case .person, .careLink, .device, .pairingCode, .note, .alert, .alertApp, .panel, .displaySettings, .gameScore, .awayChoice: false
        }
    }

    /// What of each medication the plan depends on, as last seen.
    private var planned: [String: [JSONValue?]] = [:]

    /// Whether `change` calls for a new plan. Medications re-plan when they
    /// start, stop or move to another person; an as-needed dose (it has no
    /// planned time) never does; everything else of the entities above does.
    mutating func replans(_ change: Change) -> Bool {
        switch change.entity {
        case .medication:
            let relevant = [Self.field("active", of: change), Self.field("personId", of: change)]
            defer { planned[change.entityId] = relevant }
            return change.op != .update || planned[change.entityId] != relevant
        case .dose:
            return Self.field("key", of: change) != .null
        case .schedule, .household, .person, .careLink, .device, .pairingCode, .note, .alert, .alertApp, .panel, .displaySettings, .gameScore, .awayChoice:
            return Self.mayReplan(change.entity)
        }
    }

    private static func field(_ name: String, of change: Change) -> JSONValue? {
        guard case .object(let fields) = change.payload else { return nil }
        return fields[name]
    }
}
