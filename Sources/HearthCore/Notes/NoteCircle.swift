import Foundation

/// Which senior's care circle a note shared with a circle reaches, as its
/// owner chooses it (`Note.circleOf`). Reading is decided from the stored
/// choice by `NoteAccess.letsRead`; this is the one rule for the choice
/// itself, for every path that writes a note's sharing (REST, sync).
///
/// A senior's circle note is for the people who look after her: there is
/// nothing to choose. A caregiver or admin chooses one of the seniors she
/// looks after; with exactly one, that one is chosen for her. The circle is
/// the senior's: unlinked later, the owner keeps her note (it is hers), and
/// the senior and whoever looks after her now keep reading it.
///
/// A caregiver's circle note from before v17 names no senior and keeps the
/// reading it was shared under ("the people I look after": those seniors,
/// not their other caregivers) until its owner chooses one: widening it
/// silently would share it with people she never chose.
public enum NoteCircle {
    /// What a note's owner is asked for when she shares it.
    public struct Owner: Sendable, Hashable {
        public var id: UUID
        public var role: Person.Role
        /// The seniors she looks after now, read in the same transaction.
        public var looksAfter: Set<UUID>

        public init(id: UUID, role: Person.Role, looksAfter: Set<UUID>) {
            self.id = id
            self.role = role
            self.looksAfter = looksAfter
        }
    }

    /// The note's `circleOf` after a write: `chosen` is what the request
    /// named (nil: nothing said), `before` the note as stored (nil for a new
    /// note). A choice that is not the owner's to make is 422 naming
    /// `circleOf`, so nothing is written.
    public static func senior(
        chosen: UUID?, visibility: Note.Visibility, owner: Owner, before: Note? = nil
    ) throws(HearthError) -> UUID? {
        guard visibility == .circle else {
            if chosen != nil { throw problem("is only for a note shared with a care circle") }
            return nil
        }
        if owner.role == .senior {
            // Her own circle: naming herself says the same.
            if let chosen, chosen != owner.id { throw problem("must be left out: a senior's circle is the people who look after her") }
            return nil
        }
        let wasCircle = before?.visibility == .circle
        if let chosen {
            // Kept as it is even if she no longer looks after her: the circle is the senior's.
            if wasCircle, chosen == before?.circleOf { return chosen }
            guard owner.looksAfter.contains(chosen) else { throw problem("must be a senior you look after") }
            return chosen
        }
        if wasCircle { return before?.circleOf }
        if owner.looksAfter.count == 1 { return owner.looksAfter.first }
        throw problem(owner.looksAfter.isEmpty
            ? "must be a senior you look after, and you look after no one yet"
            : "must say which senior's circle: you look after more than one")
    }

    /// The senior a `circleOf` field names (a payload's, a sync change's);
    /// nil for null, absent, or anything but an id.
    public static func senior(named value: JSONValue?) -> UUID? {
        if case .string(let text)? = value { UUID(text: text) } else { nil }
    }

    static func problem(_ message: String) -> HearthError {
        .invalid(fields: ["circleOf": message])
    }
}
