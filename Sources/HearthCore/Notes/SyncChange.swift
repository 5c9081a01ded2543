import Foundation

/// One change a device made while it may have been offline, as it pushes it
/// to `POST /api/v1/sync`. The hub applies it field by field, the latest
/// `hlc` winning; `opId` makes a retried push land once.
public struct SyncChange: Sendable, Hashable {
    /// What a device may change through sync. Note text is not a field of
    /// `note`: it travels as `noteText`, a batch of CRDT operations
    /// (Docs/note-crdt.md format 1), which merge character by character.
    public enum Entity: String, Sendable, CaseIterable {
        case note, medication, dose, noteText

        /// What the change log records a change of this under.
        public var logged: ChangeEntity {
            switch self {
            case .note, .noteText: .note
            case .medication: .medication
            case .dose: .dose
            }
        }
    }

    /// What a field's value must be.
    public enum FieldKind: Sendable, Hashable {
        /// Text, at most so many characters once trimmed, without control
        /// characters (but newlines when `multiline`); empty only when not `required`.
        case text(maximumLength: Int, required: Bool = false, multiline: Bool = false)
        case choice([String])
        case flag
        /// A number more than 0 and at most 100,000, or null to clear it.
        case optionalAmount
        /// A whole number from 0 to 365, or null to clear it.
        case optionalCount
        /// An ISO-8601 time, or null to clear it.
        case optionalTime
        /// Text that may be null.
        case optionalText(maximumLength: Int)
        /// A UUID, or null.
        case optionalId
        /// Bytes in base64, at most so many once decoded.
        case bytes(maximumLength: Int)
    }

    /// The largest batch of note-text operations one change may carry: a
    /// whole note's text (1 MiB) with room for the operations' ids.
    public static let maximumTextBatch = 2 * 1024 * 1024

    public var opId: UUID
    public var entity: Entity
    /// The entity's id: a UUID, or for a planned dose its key (`DueDose.key`).
    public var id: String
    public var fields: [String: JSONValue]
    /// Set to move a note to Trash; false brings it back.
    public var deleted: Bool?
    public var hlc: HybridTime
    /// The change as sent, in canonical form: a retried push must match it.
    public var digest: String

    public init(opId: UUID, entity: Entity, id: String, fields: [String: JSONValue], deleted: Bool?, hlc: HybridTime, digest: String) {
        self.opId = opId
        self.entity = entity
        self.id = id
        self.fields = fields
        self.deleted = deleted
        self.hlc = hlc
        self.digest = digest
    }

    /// The fields each entity takes through sync, and what each must hold.
    public static func fieldKinds(of entity: Entity) -> [String: FieldKind] {
        switch entity {
        case .note:
            ["title": .text(maximumLength: Note.maximumTitleLength),
             "visibility": .choice(Note.Visibility.allCases.map(\.rawValue)), "readOnly": .flag, "pinned": .flag,
             // Whose circle a caregiver's circle note reaches (`NoteCircle`).
             "circleOf": .optionalId]
        case .medication:
            // The same rules as `Medication.validated()`, so a change that
            // passes here cannot fail inside the push's transaction.
            ["name": .text(maximumLength: 100, required: true), "strength": .text(maximumLength: 40), "unit": .text(maximumLength: 20),
             "form": .text(maximumLength: 40), "instructions": .text(maximumLength: 500, multiline: true),
             "appearance": .text(maximumLength: 200, multiline: true),
             // Not stock: it moves with every dose and refill, which sync carries itself.
             "packageSize": .optionalAmount, "lowStockDays": .optionalCount, "active": .flag]
        case .dose:
            ["status": .choice(["taken", "skipped"]), "takenAt": .optionalTime,
             "reason": .optionalText(maximumLength: Dose.maximumReasonLength)]
        case .noteText:
            ["operations": .bytes(maximumLength: maximumTextBatch)]
        }
    }

    // MARK: Reading a push

    /// Reads the `changes` array of a push, checking each change's shape and
    /// every field's type. Errors name the change and field
    /// (`changes[2].hlc`), all at once, and nothing is applied.
    public static func changes(from value: JSONValue, device: String) throws(HearthError) -> [SyncChange] {
        guard case .array(let items) = value else { throw .invalid(fields: ["changes": "must be an array"]) }
        var changes: [SyncChange] = []
        var problems: [String: String] = [:]
        var opIds: Set<UUID> = []
        for (index, item) in items.enumerated() {
            do throws(HearthError) {
                let change = try SyncChange(item, device: device)
                guard opIds.insert(change.opId).inserted else {
                    throw .invalid(fields: ["opId": "appears twice in this push"])
                }
                changes.append(change)
            } catch .invalid(let fields) {
                for (field, message) in fields { problems["changes[\(index)].\(field)"] = message }
            } catch {
                throw error
            }
        }
        guard problems.isEmpty else { throw .invalid(fields: problems) }
        return changes
    }

    init(_ value: JSONValue, device: String) throws(HearthError) {
        guard case .object(let object) = value else { throw .invalid(fields: ["": "must be an object"]) }
        let known: Set = ["opId", "entity", "id", "fields", "deleted", "hlc"]
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw .invalid(fields: [unknown: "is not part of a change"])
        }
        guard case .string(let opText)? = object["opId"], let opId = UUID(text: opText) else {
            throw .invalid(fields: ["opId": "must be a UUID"])
        }
        guard case .string(let entityText)? = object["entity"], let entity = Entity(rawValue: entityText) else {
            throw .invalid(fields: ["entity": "must be one of " + Entity.allCases.map(\.rawValue).joined(separator: ", ")])
        }
        guard case .string(let id)? = object["id"], Self.isValidId(id, of: entity) else {
            throw .invalid(fields: ["id": entity == .dose ? "must be a planned dose's key or a UUID" : "must be a UUID"])
        }
        guard case .string(let hlcText)? = object["hlc"], let hlc = HybridTime(hlcText) else {
            throw .invalid(fields: ["hlc": "must be a hybrid logical clock reading, 2026-11-23T08:00:00.000Z-0000-<device id>"])
        }
        guard hlc.node == device else {
            throw .invalid(fields: ["hlc": "must name this device (\(device)) after its counter"])
        }
        var deleted: Bool?
        switch object["deleted"] {
        case nil, .null?: deleted = nil
        case .bool(let flag)?: deleted = flag
        default: throw .invalid(fields: ["deleted": "must be true or false"])
        }
        if deleted != nil, entity != .note {
            throw .invalid(fields: ["deleted": "only notes are deleted; a medication is stopped with active false"])
        }
        var fields: [String: JSONValue] = [:]
        switch object["fields"] {
        case nil, .null?: break
        case .object(let given)?: fields = given
        default: throw .invalid(fields: ["fields": "must be an object"])
        }
        let kinds = Self.fieldKinds(of: entity)
        for (name, field) in fields.sorted(by: { $0.key < $1.key }) {
            guard let kind = kinds[name] else {
                throw .invalid(fields: ["fields.\(name)": "is not a field of a \(entity.rawValue) that sync can change"])
            }
            if let problem = Self.problem(with: field, as: kind) { throw .invalid(fields: ["fields.\(name)": problem]) }
        }
        if fields.isEmpty, deleted == nil { throw .invalid(fields: ["fields": "must change something"]) }
        if entity == .noteText, fields["operations"] == nil { throw .invalid(fields: ["fields.operations": "is required"]) }
        self.init(opId: opId, entity: entity, id: Self.canonicalId(id), fields: fields, deleted: deleted, hlc: hlc,
                  digest: (try? value.jsonText()) ?? "")
    }

    /// UUIDs in lower case, as the hub writes them; a dose key keeps its `T`.
    static func canonicalId(_ id: String) -> String {
        guard let slash = id.firstIndex(of: "/") else { return id.lowercased() }
        return id[..<slash].lowercased() + id[slash...]
    }

    static func isValidId(_ id: String, of entity: Entity) -> Bool {
        if UUID(text: id) != nil { return true }
        guard entity == .dose else { return false }
        // "<schedule uuid>/<yyyy-mm-dd>T<hh:mm>", as `DueDose.key` writes it.
        let parts = id.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 2 && UUID(text: String(parts[0])) != nil && parts[1].count == 16 && parts[1].contains("T")
    }

    /// What is wrong with `value` as a field of that kind; nil when nothing.
    public static func problem(with value: JSONValue, as kind: FieldKind) -> String? {
        switch (kind, value) {
        case (.text(let maximum, let required, let multiline), .string(let raw)):
            let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if required, text.isEmpty { return "must not be empty" }
            if text.count > maximum { return "must be at most \(maximum) characters" }
            if text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control && !(multiline && $0 == "\n") }) {
                return "must not contain control characters"
            }
            return nil
        case (.optionalText(let maximum), .string(let text)):
            return text.count <= maximum ? nil : "must be at most \(maximum) characters"
        case (.optionalText, .null), (.optionalAmount, .null), (.optionalCount, .null), (.optionalTime, .null), (.optionalId, .null):
            return nil
        case (.choice(let options), .string(let text)) where options.contains(text):
            return nil
        case (.flag, .bool):
            return nil
        case (.bytes(let maximum), .string(let text)):
            guard let data = Data(base64Encoded: text) else { return "must be base64" }
            return data.count <= maximum ? nil : "must be at most \(maximum) bytes"
        case (.optionalAmount, .number(let number)):
            return number > 0 && number <= Medication.maximumStock ? nil : "must be more than 0 and at most 100000"
        case (.optionalCount, .number(let number)):
            return (0...365).contains(number) && number.rounded() == number ? nil : "must be a whole number from 0 to 365"
        case (.optionalTime, .string(let text)):
            return ISOTime.date(from: text) != nil ? nil : "must be an ISO-8601 time"
        case (.optionalId, .string(let text)):
            return UUID(text: text) != nil ? nil : "must be a UUID"
        case (.text, _): return "must be text"
        case (.optionalText, _): return "must be text or null"
        case (.choice(let options), _): return "must be one of " + options.joined(separator: ", ")
        case (.flag, _): return "must be true or false"
        case (.optionalAmount, _): return "must be a number or null"
        case (.optionalCount, _): return "must be a whole number or null"
        case (.optionalTime, _): return "must be an ISO-8601 time or null"
        case (.optionalId, _): return "must be a UUID or null"
        case (.bytes, _): return "must be base64 text"
        }
    }
}
