import Foundation
import GRDB
import HearthCore

extension HearthMirror {
    /// A person's screen as this device has it (their own, or a senior's
    /// this device's caregiver looks after); the standard panel and no
    /// display settings for someone sync has told it nothing of.
    public func screen(of personId: UUID) async throws -> MirroredScreen {
        try await writer.read { db in try Self.screen(of: personId, db) }
    }

    /// A person's screen now, and again whenever a sync brings a change to it.
    public func observeScreen(of personId: UUID) -> AsyncValueObservation<MirroredScreen> {
        ValueObservation.tracking { db in try Self.screen(of: personId, db) }.removeDuplicates().values(in: writer)
    }

    static func screen(of personId: UUID, _ db: Database) throws -> MirroredScreen {
        let id = personId.text
        let panel = try entities(.panel, db).first { $0.id == id }?.fields
        let display = try entities(.displaySettings, db).first { $0.id == id }?.fields
        // A score's id is "<person>:<game>".
        let scores = try entities(.gameScore, db).filter { $0.id.hasPrefix(id + ":") }.map(\.fields)
        return MirroredScreen(personId: personId, panelFields: panel, displayFields: display, scoreFields: scores)
    }
}
