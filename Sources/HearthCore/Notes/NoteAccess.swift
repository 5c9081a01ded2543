import Foundation

/// Who may read and type into a note, decided from the note as it is *now*.
///
/// The one rule for a note's words (title, first line, text, CRDT state):
/// every path by which they leave the hub — REST, search, the live stream,
/// sync pages and replayed sync results, snapshots, the note-editing socket
/// on every relay and every `hello`, Notek — asks this, at the moment of
/// sending, for the person receiving. A log entry or a connection remembers
/// what the note *was*; only the note's current row says who may see it
/// (Docs/architecture.md, "A note's words").
public struct NoteAccess: Sendable, Hashable {
    public var owner: UUID
    public var visibility: Note.Visibility
    /// Shared for reading: only its owner types into it.
    public var readOnly: Bool
    /// The senior whose circle a caregiver's circle note reaches (`Note.circleOf`).
    public var circleOf: UUID?
    /// In Trash: still listed there for those who may read it, but no one types into it.
    public var inTrash: Bool

    public init(owner: UUID, visibility: Note.Visibility, readOnly: Bool = false, circleOf: UUID? = nil, inTrash: Bool) {
        self.owner = owner
        self.visibility = visibility
        self.readOnly = readOnly
        self.circleOf = circleOf
        self.inTrash = inTrash
    }

    public var resource: PermissionPolicy.Resource { .note(owner: owner, visibility: visibility, readOnly: readOnly, circleOf: circleOf) }

    /// Whether this person may read the note's words now.
    public func letsRead(_ actor: PermissionPolicy.Actor) -> Bool {
        PermissionPolicy.decide(actor, .view, resource) == .allow
    }

    /// Whether this person may type into the note now: read it, change it,
    /// and it is not in Trash.
    public func letsEdit(_ actor: PermissionPolicy.Actor) -> Bool {
        !inTrash && letsRead(actor) && PermissionPolicy.decide(actor, .edit, resource) == .allow
    }

    /// Whether this person may have the note open in an editor now, typing
    /// or (a note shared for reading) following what its owner types.
    public func letsFollow(_ actor: PermissionPolicy.Actor) -> Bool {
        !inTrash && letsRead(actor)
    }
}

extension Note {
    public var access: NoteAccess {
        NoteAccess(owner: ownerId, visibility: visibility, readOnly: readOnly, circleOf: circleOf, inTrash: deletedAt != nil)
    }
}
