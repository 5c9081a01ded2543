import Foundation
import HearthCore

/// A note as this device has it: the hub's copy with this device's
/// unsynced edits laid over it.
public struct MirroredNote: Sendable, Hashable, Identifiable {
    public var id: UUID
    public var ownerId: UUID?
    /// The title as written; may be empty.
    public var title: String
    /// What a list shows: the title, or the text's first line when it has none.
    public var displayTitle: String
    public var text: String
    /// Who sees it: its owner, the owner's care circle, or the household.
    public var visibility: Note.Visibility
    /// Seen by the whole household.
    public var isShared: Bool { visibility == .shared }
    /// Those it is shared with read it; only its owner changes it.
    public var readOnly: Bool
    /// A caregiver's circle note: the senior whose circle it reaches (her
    /// and the people who look after her); nil for any other note.
    public var circleOf: UUID?
    public var pinned: Bool
    public var updatedAt: Date?
    /// When it was moved to Trash; nil when it is not there.
    public var deletedAt: Date?

    init?(id: String, fields: [String: JSONValue], text: String?) {
        guard let uuid = UUID(text: id) else { return nil }
        self.id = uuid
        ownerId = fields["ownerId"]?.string.flatMap(UUID.init(text:))
        title = fields["title"]?.string ?? ""
        self.text = text ?? ""
        displayTitle = title.isEmpty ? Note.firstLine(of: self.text) : title
        visibility = fields["visibility"]?.string.flatMap(Note.Visibility.init(rawValue:)) ?? .private
        readOnly = fields["readOnly"]?.bool ?? false
        circleOf = NoteCircle.senior(named: fields["circleOf"])
        pinned = fields["pinned"]?.bool ?? false
        updatedAt = fields["updatedAt"]?.date
        deletedAt = fields["deletedAt"]?.date
    }
}
