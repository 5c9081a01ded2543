import Foundation

/// A note of the household: a shopping list, what the doctor said. Its text
/// lives in a CRDT (HearthCRDT) so several people can edit it at once; this
/// is what the hub keeps beside it.
public struct Note: Sendable, Hashable {
    public typealias Visibility = PermissionPolicy.NoteVisibility

    public var id: UUID
    public var ownerId: UUID
    /// May be empty: the list then shows the first line of the text.
    public var title: String
    public var visibility: Visibility
    /// Those it is shared with may read it; only its owner changes it.
    public var readOnly: Bool
    /// For a caregiver's or admin's note shared with a circle: the senior
    /// whose circle it is (her and the people who look after her). Nil for
    /// any other note, for a senior's own circle note (her circle is hers),
    /// and for a caregiver's circle note from before v17 (`NoteCircle`).
    public var circleOf: UUID?
    public var pinned: Bool
    public var createdAt: Date
    public var updatedAt: Date
    /// When it was moved to Trash; nil for a note in use.
    public var deletedAt: Date?
    /// The text as it reads now (the CRDT's visible text).
    public var text: String

    public init(id: UUID, ownerId: UUID, title: String, visibility: Visibility, readOnly: Bool = false, circleOf: UUID? = nil,
                pinned: Bool, createdAt: Date, updatedAt: Date, deletedAt: Date?, text: String) {
        self.id = id
        self.ownerId = ownerId
        self.title = title
        self.visibility = visibility
        self.readOnly = readOnly
        self.circleOf = circleOf
        self.pinned = pinned
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.deletedAt = deletedAt
        self.text = text
    }

    public static let maximumTitleLength = 200
    /// Note text is limited to 1 MiB of UTF-8 (Docs/architecture.md, limits).
    public static let maximumTextBytes = 1 << 20
    /// A note in Trash can be restored for this long, then it is purged.
    public static let daysInTrash = 30
    /// How much of the first line stands in for an empty title.
    static let displayTitleLength = 80

    public var resource: PermissionPolicy.Resource { .note(owner: ownerId, visibility: visibility, readOnly: readOnly, circleOf: circleOf) }

    /// Whether Notek clients see and edit it: shared with the household, not
    /// in Trash, and not shared for reading only (the Notek protocol cannot
    /// say that a client may not type).
    public var isNotekNote: Bool { visibility == .shared && !readOnly && deletedAt == nil }

    /// What the list shows: the title, or else the first line with text.
    public var displayTitle: String {
        title.isEmpty ? Self.firstLine(of: text) : title
    }

    /// The first line with text, shortened to fit a list.
    /// Reads no further than that line: the hub asks after every keystroke,
    /// and a long note's other lines are not worth reading for it.
    public static func firstLine(of text: String) -> String {
        var rest = text[...]
        while !rest.isEmpty {
            let end = rest.firstIndex(where: \.isNewline) ?? rest.endIndex
            let line = rest[..<end].trimmingCharacters(in: .whitespaces)
            if !line.isEmpty {
                return line.count > displayTitleLength ? String(line.prefix(displayTitleLength)) + "…" : line
            }
            rest = end == rest.endIndex ? "" : rest[rest.index(after: end)...]
        }
        return ""
    }

    /// When a note in Trash is purged.
    public var purgeAt: Date? {
        deletedAt.map { $0.addingTimeInterval(TimeInterval(Self.daysInTrash) * 86_400) }
    }

    /// Checks a title; returns it trimmed. Empty is allowed.
    public static func validatedTitle(_ raw: String) throws(HearthError) -> String {
        let title = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if title.isEmpty { return "" }
        return try NameRule.validated(title, field: "title", maximumLength: maximumTitleLength)
    }

    /// Checks a note's text against the size limit.
    public static func validatedText(_ text: String) throws(HearthError) -> String {
        if text.utf8.count > maximumTextBytes {
            throw .invalid(fields: ["text": "must be at most 1 MiB"])
        }
        return text
    }
}
