import Foundation

/// Who may do what, as one pure function. The rules follow the published
/// senior-care app study the project builds on:
/// - a senior sees and edits their own things and the household's shared notes;
/// - a private note is visible to its owner only — never to caregivers or admins;
/// - a note shared with a care circle is seen by its owner and that circle
///   alone: a senior's own, the people who look after her; a caregiver's, the
///   senior she chose and everyone who looks after that senior (a note from
///   before she chose one: the seniors she looks after); a read-only note is
///   changed by its owner alone;
/// - caregivers linked to a senior see and manage that senior's medications,
///   doses, alerts and shared notes;
/// - only admins manage people, devices and settings.
public enum PermissionPolicy {
    /// The person acting, with the seniors they are linked to as a caregiver
    /// and, for a senior, the people linked to them: their care circle.
    public struct Actor: Sendable, Hashable {
        public var personId: UUID
        public var role: Person.Role
        public var caresFor: Set<UUID>
        /// The caregivers (and admins) linked to this person as their senior.
        public var lookedAfterBy: Set<UUID>
        /// A senior who manages her own medications (`Person.managesOwnMedications`).
        public var managesOwnMedications: Bool
        /// The hub's own work acting, not a person of the household (nil:
        /// a person). Each has its identity (`hubTerminal`, `notekBridge`,
        /// `reminderService`, `restore`) and its own rows in `allows`.
        public var work: HubWork?

        public init(personId: UUID, role: Person.Role, caresFor: Set<UUID> = [], lookedAfterBy: Set<UUID> = [],
                    managesOwnMedications: Bool = false, work: HubWork? = nil) {
            self.personId = personId
            self.role = role
            self.caresFor = caresFor
            self.lookedAfterBy = lookedAfterBy
            self.managesOwnMedications = managesOwnMedications
            self.work = work
        }

        /// Whether `owner`'s care circle takes this person in: she looks
        /// after them, or they look after her.
        public func isInCircle(of owner: UUID) -> Bool {
            caresFor.contains(owner) || lookedAfterBy.contains(owner)
        }

        /// Whether a circle note of `owner` reaches this person. A note that
        /// names its senior (`circleOf`, a caregiver's or admin's since v17)
        /// reaches that senior's circle as it is now — her and everyone
        /// linked to her as a carer — whether or not its owner still looks
        /// after her: the circle is the senior's. Without one it reaches the
        /// owner's own circle (a senior's carers; for a caregiver's note from
        /// before v17, the seniors she looks after, as she was told then).
        public func isInCircle(of owner: UUID, around senior: UUID?) -> Bool {
            guard let senior else { return isInCircle(of: owner) }
            return personId == senior || caresFor.contains(senior)
        }
    }

    public enum Action: String, Sendable, CaseIterable {
        case view, create, edit, delete
    }

    /// What the hub does when no person of the household acts.
    public enum HubWork: String, Sendable, Hashable, CaseIterable {
        /// The admin at the hub's console (`sudo hearth …`): an admin's say.
        case terminal
        /// A Notek client (its protocol has no sign-in): the household's
        /// shared notes, and nothing else.
        case notekBridge
        /// The reminder service: doses falling due and being missed, their
        /// alerts and the clock's alert when time went backwards.
        case reminders
        /// Restoring a backup: keeping devices removed since it was made removed.
        case restore
    }

    /// Who a note is for: its owner alone; a care circle (for a senior's
    /// note, those who look after her; for a caregiver's, the senior she
    /// chose and those who look after that senior); or the whole household.
    public enum NoteVisibility: String, Sendable, Codable, CaseIterable {
        case `private`, circle, shared
    }

    /// What is acted on, with just enough about it to decide.
    public enum Resource: Sendable, Hashable {
        /// A note; `readOnly`: those it is shared with read it, only its
        /// owner changes it; `circleOf`: the senior whose circle a circle
        /// note reaches, when it is not its owner's own (`Note.circleOf`).
        case note(owner: UUID, visibility: NoteVisibility, readOnly: Bool = false, circleOf: UUID? = nil)
        /// A senior's doses, alerts and SOS: their day-to-day care.
        case care(of: UUID)
        /// A senior's list of medications and their schedules.
        case medications(of: UUID)
        /// A dose already recorded for a senior, to be put right or taken
        /// back: by her caregivers, or by her when she recorded it herself.
        case doseRecord(of: UUID, recordedBy: UUID?)
        case person(UUID)
        /// A device or an alert app's credential, by the person it belongs to.
        case device(owner: UUID)
        /// The household's name, time zone and other settings.
        case household
        /// A pairing code that pairs a device for this person (nil: someone
        /// new, made when the code is used): their role and the seniors they
        /// look after. Whoever redeems the code acts as that person, so
        /// making one for someone who exists is as strong as being them.
        case pairing(person: UUID?, role: Person.Role, looksAfter: Set<UUID>)
        /// How a person's screens look and what is on them: her panel, her
        /// display settings, her games' best scores.
        case screen(of: UUID)
        /// Setting the hub's clock right, which moves every dose, reminder,
        /// pairing code's expiry and Trash's purge: whether it was set since
        /// the hub started, and whether the new time is within 48 h of its
        /// last record (`HearthStore.clockCorrectionLimit`).
        case hubClock(setSinceStart: Bool, withinLimit: Bool)
        /// How a person is told away from home (texts, push, her secret push
        /// topic): hers, and her admins', to see and to change.
        case away(of: UUID)
        /// The reminder pass over every senior's doses: the hub's own work.
        case doseReminders
    }

    public enum Decision: Sendable, Equatable {
        case allow, deny
    }

    public static func decide(_ actor: Actor, _ action: Action, _ resource: Resource) -> Decision {
        allows(actor, action, resource) ? .allow : .deny
    }

    /// The decision as an error, for a write that decides inside its own
    /// transaction on the rows it read there: what the actor may not even
    /// see is unknown (`notFound`, so IDs of others' things leak nothing),
    /// what they may see but not do is `forbidden`.
    public static func require(_ actor: Actor, _ action: Action, _ resource: Resource, what: String) throws(HearthError) {
        guard decide(actor, action, resource) == .deny else { return }
        if decide(actor, .view, resource) == .deny { throw .notFound(what: what) }
        throw .forbidden(refusal(action, resource))
    }

    /// Why an actor who sees a thing may not do this to it, in one sentence.
    static func refusal(_ action: Action, _ resource: Resource) -> String {
        switch resource {
        case .doseRecord: "A dose someone else recorded is put right by a caregiver"
        case .note(_, _, readOnly: true, _): "This note is shared for reading: only its owner changes it"
        default: "Your role in the household does not allow this"
        }
    }

    static func allows(_ actor: Actor, _ action: Action, _ resource: Resource) -> Bool {
        // The console is the household's admin; the rest of the hub's work
        // has its own rows and nothing else.
        if let work = actor.work, work != .terminal { return allows(work, action, resource) }
        let isAdmin = actor.role == .admin
        switch resource {
        case .note(let owner, .private, _, _):
            return owner == actor.personId
        case .note(let owner, let visibility, let readOnly, let circleOf):
            if owner == actor.personId { return true }
            // Everyone it is shared with reads it (the household, or the
            // circle) and, unless it is read-only, edits it; removing
            // someone else's is for the seniors' caregivers and admins (of
            // a circle note, only the caregivers of its owner: a fellow
            // caregiver in a senior's circle does not throw away Ania's note).
            let sees = visibility == .shared || actor.isInCircle(of: owner, around: circleOf)
            switch action {
            case .view: return sees
            case .create, .edit: return sees && !readOnly
            case .delete: return sees && !readOnly && (actor.caresFor.contains(owner) || (isAdmin && visibility == .shared))
            }
        case .care(let senior):
            if senior == actor.personId {
                // A senior records their own doses and raises SOS; changing the
                // medication list is for their caregivers.
                return action == .view || action == .edit || action == .create
            }
            return actor.role != .senior && actor.caresFor.contains(senior)
        case .medications(let senior):
            // Seniors see their list; changing it is for their caregivers,
            // and for a senior an admin lets manage her own.
            if senior == actor.personId { return action == .view || actor.managesOwnMedications }
            return actor.role != .senior && actor.caresFor.contains(senior)
        case .doseRecord(let senior, let recordedBy):
            if senior == actor.personId { return action == .view || recordedBy == actor.personId }
            return actor.role != .senior && actor.caresFor.contains(senior)
        case .person(let id):
            if action == .view { return true }  // names are shown across the household
            if id == actor.personId && action == .edit { return true }  // one's own name
            return isAdmin
        case .device(let owner):
            // One's own devices, and the alert apps one signs in on one's phone.
            if owner == actor.personId { return true }
            return isAdmin
        case .away(let person):
            return person == actor.personId || isAdmin
        case .household:
            return action == .view || isAdmin
        case .pairing(let person, let role, let looksAfter):
            if isAdmin { return true }
            // A senior's tablet shows a code only for someone new who will
            // look after her — never for anyone who exists: whoever redeems
            // it acts as them, and a caregiver of hers may look after other
            // seniors too (her tablet became a key to their notes and
            // medicines). Never for an admin, whose device could reshape
            // the household.
            return actor.role == .senior && action == .create && person == nil && role == .caregiver
                && looksAfter == [actor.personId]
        case .screen(let person):
            // Hers; the caregivers who look after her arrange it from afar,
            // and an admin. A senior never changes another's.
            if person == actor.personId || isAdmin { return true }
            return actor.role != .senior && actor.caresFor.contains(person)
        case .hubClock(let setSinceStart, let withinLimit):
            if isAdmin { return true }
            // A Pi boots with no real-time clock: a caregiver who looks after
            // someone (whose doses need the right time) may set it once after
            // the hub starts, and not far; a caregiver who looks after nobody,
            // a senior, never.
            return action == .edit && actor.role == .caregiver && !actor.caresFor.isEmpty && !setSinceStart && withinLimit
        case .doseReminders:
            return false  // no person runs the reminder pass
        }
    }

    /// The hub's own work, each to what it is for.
    static func allows(_ work: HubWork, _ action: Action, _ resource: Resource) -> Bool {
        switch (work, resource) {
        case (.notekBridge, .note(_, .shared, let readOnly, _)):
            // Read, type, rename, move to Trash: what a household turning
            // the listener on agrees to; a note shared for reading is read.
            return action == .view || !readOnly
        case (.reminders, .doseReminders):
            return true
        case (.restore, .device):
            return action == .view || action == .delete
        default:
            return false
        }
    }
}

extension PermissionPolicy.Actor {
    /// Who acts from the hub's terminal (`sudo hearth …`) or for the hub
    /// itself in a test: its administrator, outside the household's people,
    /// with an admin's say.
    public static let hubTerminal = PermissionPolicy.Actor(
        personId: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)), role: .admin, work: .terminal)

    /// Who a Notek client acts as (`NotekBridge`): nobody in particular, the
    /// household's shared notes only. Its person id is nobody's.
    public static let notekBridge = PermissionPolicy.Actor(
        personId: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1)), role: .caregiver, work: .notekBridge)

    /// The reminder service (`HearthStore.remind(at:as:)`).
    public static let reminderService = PermissionPolicy.Actor(
        personId: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2)), role: .caregiver, work: .reminders)

    /// A restore keeping removed devices removed (`HearthStore.keepRevoked(_:as:by:)`).
    public static let restore = PermissionPolicy.Actor(
        personId: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3)), role: .caregiver, work: .restore)
}
