import Foundation
import HearthCore

/// A medication as this device has it.
public struct MirroredMedication: Sendable, Hashable, Identifiable {
    public var id: UUID
    /// The person who takes it.
    public var personId: UUID?
    public var name: String
    public var strength: String
    public var unit: String
    public var form: String
    public var instructions: String
    public var appearance: String
    /// Units left, when someone counts them.
    public var stock: Double?
    public var packageSize: Double?
    public var lowStockDays: Int?
    public var active: Bool

    init?(id: String, fields: [String: JSONValue]) {
        guard let uuid = UUID(text: id) else { return nil }
        self.id = uuid
        personId = fields["personId"]?.string.flatMap(UUID.init(text:))
        name = fields["name"]?.string ?? ""
        strength = fields["strength"]?.string ?? ""
        unit = fields["unit"]?.string ?? ""
        form = fields["form"]?.string ?? ""
        instructions = fields["instructions"]?.string ?? ""
        appearance = fields["appearance"]?.string ?? ""
        stock = fields["stock"]?.double
        packageSize = fields["packageSize"]?.double
        lowStockDays = fields["lowStockDays"]?.double.map { Int($0) }
        active = fields["active"]?.bool ?? true
    }
}

/// What a device may change of a medication through sync; nil leaves a field
/// as it is. Stock is not here: it moves with doses and refills.
public struct MedicationChanges: Sendable, Hashable {
    public var name: String?
    public var strength: String?
    public var unit: String?
    public var form: String?
    public var instructions: String?
    public var appearance: String?
    public var active: Bool?

    public init(name: String? = nil, strength: String? = nil, unit: String? = nil, form: String? = nil,
                instructions: String? = nil, appearance: String? = nil, active: Bool? = nil) {
        self.name = name
        self.strength = strength
        self.unit = unit
        self.form = form
        self.instructions = instructions
        self.appearance = appearance
        self.active = active
    }

    var fields: [String: JSONValue] {
        var fields: [String: JSONValue] = [:]
        for (name, value) in [("name", name), ("strength", strength), ("unit", unit), ("form", form),
                              ("instructions", instructions), ("appearance", appearance)] {
            if let value { fields[name] = .string(value) }
        }
        if let active { fields["active"] = .bool(active) }
        return fields
    }
}
