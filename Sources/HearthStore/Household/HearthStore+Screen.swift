import Foundation
import GRDB
import HearthCore

/// A person's panel and display settings as the hub keeps them, and
/// whether anyone chose them yet (else the standard ones are shown).
public struct ArrangedPanel: Sendable, Equatable {
    public var panel: Panel
    public var arranged: Bool
}

public struct ChosenDisplaySettings: Sendable, Equatable {
    public var settings: DisplaySettings
    public var chosen: Bool
}

extension HearthStore {
    /// A person's panel, for someone who may see their screen (themself, the
    /// caregivers who look after them, an admin); anyone else is told the
    /// person is unknown (404).
    public func panel(of personId: UUID, visibleTo actor: PermissionPolicy.Actor) async throws -> ArrangedPanel {
        try await pool.read { db in
            _ = try Self.screenOwner(personId, for: .view, as: actor, db)
            return try Self.panel(of: personId, db)
        }
    }

    /// Arranges a person's panel: all six places at once, as the editor
    /// shows them. The same panel again writes nothing and tells no one.
    public func arrangePanel(of personId: UUID, _ panel: Panel, as editor: PermissionPolicy.Actor, by origin: String) async throws -> ArrangedPanel {
        try await write(by: origin) { transaction in
            let db = transaction.db
            _ = try Self.screenOwner(personId, for: .edit, as: editor, db)
            let current = try Self.panel(of: personId, db)
            guard !current.arranged || current.panel != panel else { return current }
            try db.cachedExecute(sql: "DELETE FROM panel_tiles WHERE personId = ?", arguments: [personId.text])
            for tile in panel.tiles {
                try db.cachedExecute(sql: "INSERT INTO panel_tiles (personId, position, gadget) VALUES (?, ?, ?)",
                                     arguments: [personId.text, tile.position, tile.gadget.rawValue])
            }
            try transaction.record(entity: .panel, entityId: personId.text, op: current.arranged ? .update : .create, payload: [
                "personId": .string(personId.text),
                "tiles": .array(panel.tiles.map { ["position": .number(Double($0.position)), "gadget": .string($0.gadget.rawValue)] }),
            ])
            return ArrangedPanel(panel: panel, arranged: true)
        }
    }

    /// A person's display settings, for someone who may see their screen.
    public func displaySettings(of personId: UUID, visibleTo actor: PermissionPolicy.Actor) async throws -> ChosenDisplaySettings {
        try await pool.read { db in
            let person = try Self.screenOwner(personId, for: .view, as: actor, db)
            return try Self.displaySettings(of: person, db)
        }
    }

    /// Sets a person's text size, theme, language and speaking rate; every
    /// device of theirs follows from the change log.
    public func setDisplaySettings(of personId: UUID, _ settings: DisplaySettings, as editor: PermissionPolicy.Actor,
                                   by origin: String) async throws -> ChosenDisplaySettings {
        try await write(by: origin) { transaction in
            let db = transaction.db
            let person = try Self.screenOwner(personId, for: .edit, as: editor, db)
            let current = try Self.displaySettings(of: person, db)
            guard !current.chosen || current.settings != settings else { return current }
            try db.cachedExecute(sql: """
                INSERT INTO display_settings (personId, textSize, theme, language, speechRate) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (personId) DO UPDATE SET textSize = excluded.textSize, theme = excluded.theme,
                    language = excluded.language, speechRate = excluded.speechRate
                """, arguments: [personId.text, settings.textSize.rawValue, settings.theme.rawValue, settings.language.rawValue,
                                 settings.speechRate.rawValue])
            try transaction.record(entity: .displaySettings, entityId: personId.text, op: current.chosen ? .update : .create, payload: [
                "personId": .string(personId.text), "textSize": .string(settings.textSize.rawValue), "theme": .string(settings.theme.rawValue),
                "language": .string(settings.language.rawValue), "speechRate": .string(settings.speechRate.rawValue),
            ])
            return ChosenDisplaySettings(settings: settings, chosen: true)
        }
    }

    /// The person whose screen this is, if the actor may do `action` to it:
    /// an archived or unknown person, or one whose screen the actor may not
    /// see, is unknown (404); seen but not changeable is 403.
    static func screenOwner(_ personId: UUID, for action: PermissionPolicy.Action, as actor: PermissionPolicy.Actor,
                            _ db: Database) throws -> Person {
        guard let person = try person(id: personId, db), person.archivedAt == nil else { throw HearthError.notFound(what: "That person") }
        try PermissionPolicy.require(actor, action, .screen(of: personId), what: "That person")
        return person
    }

    static func panel(of personId: UUID, _ db: Database) throws -> ArrangedPanel {
        let rows = try Row.fetchAll(db.cachedStatement(sql: "SELECT position, gadget FROM panel_tiles WHERE personId = ? ORDER BY position"),
                                    arguments: [personId.text])
        // A gadget this version does not know (a newer hub's backup) is left off.
        let requested = rows.map { Panel.RequestedTile(position: $0["position"], gadget: $0["gadget"]) }
            .filter { $0.gadget.flatMap(Gadget.init(rawValue:)) != nil }
        guard let panel = try? Panel.validated(requested) else { return ArrangedPanel(panel: .standard, arranged: false) }
        return ArrangedPanel(panel: panel, arranged: true)
    }

    static func displaySettings(of person: Person, _ db: Database) throws -> ChosenDisplaySettings {
        let language = try household(db)?.language ?? .english
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT textSize, theme, language, speechRate FROM display_settings WHERE personId = ?"),
                                         arguments: [person.id.text]),
              let settings = try? DisplaySettings.validated(textSize: row["textSize"], theme: row["theme"], language: row["language"],
                                                            speechRate: row["speechRate"])
        else { return ChosenDisplaySettings(settings: .standard(for: person.role, language: language), chosen: false) }
        return ChosenDisplaySettings(settings: settings, chosen: true)
    }
}
