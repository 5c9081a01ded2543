import Foundation
import HearthCore
import HearthStore
import Hummingbird

/// `/api/v1/notes`: the household's notes — list, search, create, read,
/// change title, visibility or pin, move to Trash and back. The text itself
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

        init(_ note: Note, withText: Bool = true, snippet: [NoteSearchHit.Piece]? = nil) {
            id = note.id.text
            ownerId = note.ownerId.text
            title = note.title
            displayTitle = note.displayTitle
            visibility = note.visibility.rawValue
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
        static func summary(_ note: Note, snippet: [NoteSearchHit.Piece]? = nil) -> NoteBody {
            NoteBody(note, withText: false, snippet: snippet)
        }
    }

    struct NewNote: Decodable {
        var title: String?
        var text: String?
        /// Private unless said otherwise: sharing is a choice.
        var visibility: Note.Visibility?
        var pinned: Bool?
    }

    /// Fields a client may change; absent fields stay as they are.
    struct NotePatch: Decodable {
        var title: String?
        var visibility: Note.Visibility?
        var pinned: Bool?
    }

    func addRoutes(to router: Router<HearthRequestContext>) {
        router.get("/api/v1/notes") { request, context -> [NoteBody] in
            let actor = try context.requirePaired()
            let query = request.uri.queryParameters.get("q") ?? ""
            let inTrash = ["1", "true"].contains(request.uri.queryParameters.get("trash") ?? "")
            if !query.trimmingCharacters(in: .whitespaces).isEmpty, !inTrash {
                guard query.count <= 200 else { throw HearthError.invalid(fields: ["q": "must be at most 200 characters"]) }
                return try await store.searchNotes(query, visibleTo: actor).map { NoteBody.summary($0.note, snippet: $0.snippet) }
            }
            return try await store.notes(visibleTo: actor, inTrash: inTrash).map { NoteBody.summary($0) }
        }
        router.post("/api/v1/notes") { request, context -> EditedResponse<NoteBody> in
            let actor = try context.requirePaired()
            let new = try await request.decode(as: NewNote.self, context: context)
            let visibility = new.visibility ?? .private
            try context.require(.create, .note(owner: actor.personId, visibility: visibility), what: "A note")
            let note = try await store.createNote(
                ownerId: actor.personId, title: new.title ?? "", text: new.text ?? "",
                visibility: visibility, pinned: new.pinned ?? false, by: context.caller.actorName)
            return EditedResponse(status: .created, headers: [.location: "/api/v1/notes/\(note.id.text)"], response: NoteBody(note))
        }
        router.get("/api/v1/notes/{id}") { _, context -> NoteBody in
            let note = try await visibleNote(context)
            return NoteBody(note)
        }
        router.patch("/api/v1/notes/{id}") { request, context -> NoteBody in
            let note = try await visibleNote(context)
            let actor = try context.require(.edit, note.resource, what: "That note")
            let patch = try await request.decode(as: NotePatch.self, context: context)
            if let visibility = patch.visibility, visibility != note.visibility, note.ownerId != actor.personId {
                throw HearthError.forbidden("Only the note's owner can change who sees it")
            }
            return NoteBody(try await store.updateNote(
                id: note.id, title: patch.title, visibility: patch.visibility, pinned: patch.pinned,
                by: context.caller.actorName))
        }
        router.delete("/api/v1/notes/{id}") { _, context -> NoteBody in
            let note = try await visibleNote(context)
            try context.require(.delete, note.resource, what: "That note")
            return NoteBody(try await store.trashNote(id: note.id, by: context.caller.actorName))
        }
        router.post("/api/v1/notes/{id}/restore") { _, context -> NoteBody in
            let note = try await visibleNote(context)
            try context.require(.delete, note.resource, what: "That note")
            return NoteBody(try await store.restoreNote(id: note.id, by: context.caller.actorName))
        }
    }

    /// The note named in the path, if the caller may see it; otherwise 404,
    /// so the existence of another person's private note is not revealed.
    private func visibleNote(_ context: HearthRequestContext) async throws -> Note {
        let actor = try context.requirePaired()
        guard let id = context.parameters.get("id").flatMap(UUID.init(text:)),
              let note = try await store.note(id: id), note.access.letsRead(actor)
        else { throw HearthError.notFound(what: "That note") }
        return note
    }
}
