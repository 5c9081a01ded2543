import Foundation
import HearthCore
import HearthStore
import Hummingbird

/// `/api/v1/notes`: the household's notes — list, search, create, read,
/// change title, who sees it (private, a care circle — for a caregiver, the
/// senior she chooses, `circleOf` — the household), whether they may change it, or pin; move to Trash and back. The text itself
/// is edited together over `/api/v1/notes/{id}/edit`; here it is set once,
/// when a note is created.
struct NotesController {
    let store: HearthStore

    /// A note as the API shows it: in a list with an excerpt (and, for a
    /// search, the passage that matched), or on its own with its text.
    struct NoteBody: ResponseEncodable {
        struct Piece: Encodable {
            var text: String
            var matched: Bool
        }

        var id: String
        var ownerId: String
        var title: String
        /// The title, or the first line of the text when there is none.
        var displayTitle: String
        var visibility: String
        /// Those it is shared with may read it; only its owner changes it.
        var readOnly: Bool
        /// A caregiver's circle note: the senior whose circle it reaches.
        var circleOf: String?
        /// Whether the caller may change it (type, rename, pin; once out of
        /// Trash for a note in it).
        var canEdit: Bool
        var pinned: Bool
        var createdAt: Date
        var updatedAt: Date
        var deletedAt: Date?
        /// When a note in Trash will be deleted for good.
        var purgeAt: Date?
        /// In a list: the start of the text.
        var excerpt: String?
        /// In a search: the passage that matched, matched words marked.
        var snippet: [Piece]?
        /// On its own: the whole text.
        var text: String?

        init(_ note: Note, for actor: PermissionPolicy.Actor, withText: Bool = true, snippet: [NoteSearchHit.Piece]? = nil) {
            id = note.id.text
            ownerId = note.ownerId.text
            title = note.title
            displayTitle = note.displayTitle
            visibility = note.visibility.rawValue
            readOnly = note.readOnly
            circleOf = note.circleOf?.text
            canEdit = PermissionPolicy.decide(actor, .edit, note.resource) == .allow
            pinned = note.pinned
            createdAt = note.createdAt
            updatedAt = note.updatedAt
            deletedAt = note.deletedAt
            purgeAt = note.purgeAt
            if withText {
                text = note.text
            } else {
                excerpt = note.text.count > 160 ? String(note.text.prefix(160)) + "…" : note.text
            }
            self.snippet = snippet?.map { Piece(text: $0.text, matched: $0.matched) }
        }

        /// A note in a list.
        static func summary(_ note: Note, for actor: PermissionPolicy.Actor, snippet: [NoteSearchHit.Piece]? = nil) -> NoteBody {
            NoteBody(note, for: actor, withText: false, snippet: snippet)
        }
    }

    struct NewNote: Decodable {
        var title: String?
        var text: String?
        /// Private unless said otherwise: sharing is a choice.
        var visibility: Note.Visibility?
        /// Editable by those it is shared with unless said otherwise.
        var readOnly: Bool?
        /// Whose circle, for a caregiver's circle note (`NoteCircle`).
        var circleOf: UUID?
        var pinned: Bool?
    }

    /// Fields a client may change; absent fields stay as they are.
    struct NotePatch: Decodable {
        var title: String?
        var visibility: Note.Visibility?
        var readOnly: Bool?
        var circleOf: UUID?
        var pinned: Bool?
    }

    func addRoutes(to api: RouterGroup<HearthRequestContext>) {
        let notes = api.group(.notes)
        notes.get { request, context -> [NoteBody] in
            let actor = try context.requirePaired()
            let query = request.uri.queryParameters.get("q") ?? ""
            let inTrash = try CareQuery.flag("trash", in: request)
            // Counted as the API document counts (code points), whether or not it is used.
            guard query.unicodeScalars.count <= 200 else { throw HearthError.invalid(fields: ["q": "must be at most 200 characters"]) }
            if !query.trimmingCharacters(in: .whitespaces).isEmpty, !inTrash {
                return try await store.searchNotes(query, visibleTo: actor).map { NoteBody.summary($0.note, for: actor, snippet: $0.snippet) }
            }
            return try await store.notes(visibleTo: actor, inTrash: inTrash).map { NoteBody.summary($0, for: actor) }
        }
        notes.post { request, context -> EditedResponse<NoteBody> in
            let actor = try context.requirePaired()
            let new = try await request.decode(as: NewNote.self, context: context)
            let visibility = new.visibility ?? .private
            let readOnly = new.readOnly ?? false
            try context.require(.create, .note(owner: actor.personId, visibility: visibility, readOnly: readOnly), what: "A note")
            let note = try await store.createNote(
                as: actor, title: new.title ?? "", text: new.text ?? "",
                visibility: visibility, readOnly: readOnly, circleOf: new.circleOf, pinned: new.pinned ?? false, by: context.caller.origin)
            return EditedResponse(status: .created, headers: [.location: APIPath.link(.notes, note.id)], response: NoteBody(note, for: actor))
        }
        notes.get("{id}") { _, context -> NoteBody in
            let (note, actor) = try await visibleNote(context)
            return NoteBody(note, for: actor)
        }
        // Who may change a note is decided by the store, on the note as its
        // write reads it (HearthStore+Notes).
        notes.patch("{id}") { request, context -> NoteBody in
            let (id, actor) = try Self.named(context)
            let patch = try await request.decode(as: NotePatch.self, context: context)
            return NoteBody(try await store.updateNote(
                id: id, title: patch.title, visibility: patch.visibility, readOnly: patch.readOnly, circleOf: patch.circleOf, pinned: patch.pinned,
                as: actor, by: context.caller.origin), for: actor)
        }
        notes.delete("{id}") { _, context -> NoteBody in
            let (id, actor) = try Self.named(context)
            return NoteBody(try await store.trashNote(id: id, as: actor, by: context.caller.origin), for: actor)
        }
        notes.post("{id}/restore") { _, context -> NoteBody in
            let (id, actor) = try Self.named(context)
            return NoteBody(try await store.restoreNote(id: id, as: actor, by: context.caller.origin), for: actor)
        }
    }

    /// The note named in the path, if the caller may see it; otherwise 404,
    /// so the existence of another person's private note is not revealed.
    private func visibleNote(_ context: HearthRequestContext) async throws -> (Note, PermissionPolicy.Actor) {
        let (id, actor) = try Self.named(context)
        guard let note = try await store.note(id: id), note.access.letsRead(actor) else { throw HearthError.notFound(what: "That note") }
        return (note, actor)
    }

    /// The note the path names (an id that is not one is a note no one has), and who asks.
    private static func named(_ context: HearthRequestContext) throws -> (UUID, PermissionPolicy.Actor) {
        let actor = try context.requirePaired()
        guard let id = context.parameters.get("id").flatMap(UUID.init(text:)) else { throw HearthError.notFound(what: "That note") }
        return (id, actor)
    }
}
