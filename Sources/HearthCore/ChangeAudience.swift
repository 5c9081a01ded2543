import Foundation

/// Who may hear of a committed change: the resource the permission policy
/// decides on, read once from the change as the store recorded it (its kind
/// and the owner, senior or visibility its payload names), so each listener
/// is one `PermissionPolicy.mayHear` call, not a parse of the payload.
public enum ChangeAudience: Sendable, Hashable {
    /// Whoever may view this.
    case viewers(PermissionPolicy.Resource)
    /// Everyone in the household: names, and who looks after whom.
    case everyone
    /// A note whose sharing just changed (who sees it, or whose circle):
    /// whoever may read it now, and whoever could before (they hear that it
    /// is gone, never its words: what is sent of a note is decided again
    /// when it is sent). Both are `.note` resources.
    case noteViewers(now: PermissionPolicy.Resource, before: PermissionPolicy.Resource)
    /// The household's admins (pairing codes, a device without an owner).
    case admins
    /// The hub's own alerts (its clock), which concern no one senior.
    case hubAlertReaders
    /// A change no listener hears of: its payload lacks what deciding needs.
    case nobody

    public init(_ entity: ChangeEntity, payload: JSONValue) {
        let person: UUID? = if case .string(let text)? = payload.field("personId") { UUID(text: text) } else { nil }
        switch entity {
        case .household:
            self = .viewers(.household)
        case .person, .careLink:
            self = .everyone
        case .device, .alertApp, .awayChoice:
            self = person.map { .viewers(.device(owner: $0)) } ?? .admins
        case .pairingCode:
            self = .admins
        case .note:
            guard case .string(let owner)? = payload.field("ownerId"), let ownerId = UUID(text: owner),
                  case .string(let raw)? = payload.field("visibility"),
                  let visibility = PermissionPolicy.NoteVisibility(rawValue: raw)
            else { self = .nobody; return }
            // Entries logged before notes had a care circle say `wasShared`.
            let was: PermissionPolicy.NoteVisibility? = if case .string(let raw)? = payload.field("wasVisibility") {
                PermissionPolicy.NoteVisibility(rawValue: raw)
            } else {
                payload.field("wasShared") == .bool(true) ? .shared : nil
            }
            // A caregiver's circle note names its senior (v17); `wasCircleOf`
            // (null for none) is there only when that changed.
            let circle = NoteCircle.senior(named: payload.field("circleOf"))
            let wasCircle: UUID?? = payload.field("wasCircleOf").map(NoteCircle.senior(named:))
            let now = PermissionPolicy.Resource.note(owner: ownerId, visibility: visibility, circleOf: circle)
            if (was != nil && was != visibility) || wasCircle != nil {
                self = .noteViewers(now: now, before: .note(owner: ownerId, visibility: was ?? visibility, circleOf: wasCircle ?? circle))
            } else {
                self = .viewers(now)
            }
        case .medication, .schedule:
            self = person.map { .viewers(.medications(of: $0)) } ?? .nobody
        case .dose:
            self = person.map { .viewers(.care(of: $0)) } ?? .nobody
        case .panel, .displaySettings, .gameScore:
            self = person.map { .viewers(.screen(of: $0)) } ?? .nobody
        case .alert:
            if let person { self = .viewers(.care(of: person)) } else {
                self = payload.field("personId") == .null ? .hubAlertReaders : .nobody
            }
        }
    }
}

extension PermissionPolicy {
    /// Whether `actor` hears of a change with this audience (live, sync, Notek).
    public static func mayHear(_ actor: Actor, _ audience: ChangeAudience) -> Bool {
        switch audience {
        case .viewers(let resource):
            return decide(actor, .view, resource) == .allow
        case .everyone:
            return true
        case .noteViewers(let now, let before):
            return decide(actor, .view, now) == .allow || decide(actor, .view, before) == .allow
        case .admins:
            return actor.role == .admin
        case .hubAlertReaders:
            return seesHubAlerts(actor)
        case .nobody:
            return false
        }
    }

    /// The hub's own alerts (its clock is wrong) are for the people who can
    /// act on them: caregivers and admins, not the senior's tablet.
    public static func seesHubAlerts(_ actor: Actor) -> Bool {
        actor.role != .senior
    }
}
