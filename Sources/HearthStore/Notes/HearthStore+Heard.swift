import Foundation
import HearthCore

extension HearthStore {
    /// A change as this listener may hear of it now. Anything but a note is
    /// sent as committed (the subscription's filter judged it). A note is
    /// judged again from the note as it is now (NoteAccess): its current
    /// fields when the listener may read it; when they may no longer (made
    /// private, purged), only that it is gone, with no title or first line;
    /// a note's purge (`delete`) names no words and goes as it is.
    public func asHeardNow(_ change: Change, by actor: PermissionPolicy.Actor) async throws -> Change? {
        guard change.entity == .note, change.op != .delete, let id = UUID(text: change.entityId) else { return change }
        var heard = change
        switch try await notesNow(ids: [id], for: actor, withText: false)[id] {
        case .readable(let fields, _)?: heard.payload = fields
        case .hidden?, .gone?, nil: heard.payload = ["gone": .bool(true)]
        }
        return heard
    }
}
