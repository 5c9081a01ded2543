import Foundation

/// A medicine one person takes, as their caregivers describe it. Doses and
/// stock are counted in `unit` (tablets unless said otherwise).
public struct Medication: Hashable, Sendable, Codable {
    public var id: UUID
    /// The senior who takes it.
    public var personId: UUID
    public var name: String
    /// As printed on the box, e.g. "500 mg".
    public var strength: String
    /// What doses and stock are counted in: tablets, ml, drops, puffs…
    public var unit: String
    /// Tablet, capsule, syrup, inhaler…
    public var form: String
    /// How to take it, e.g. "with food".
    public var instructions: String
    /// What it looks like, so the right pill is taken: "small white round".
    public var appearance: String
    /// Units on hand; nil when nobody counts.
    public var stock: Double?
    /// Units in one package, added by "Refilled".
    public var packageSize: Double?
    /// Warn when the stock lasts fewer days than this.
    public var lowStockDays: Int?
    /// A deactivated medication keeps every dose ever recorded.
    public var active: Bool
    /// Counts edits; each revision is kept.
    public var revision: Int
    public var createdAt: Date
    public var updatedAt: Date

    public init(id: UUID = UUID.random(), personId: UUID, name: String, strength: String = "", unit: String = Medication.defaultUnit,
                form: String = "", instructions: String = "", appearance: String = "", stock: Double? = nil,
                packageSize: Double? = nil, lowStockDays: Int? = nil, active: Bool = true, revision: Int = 1,
                createdAt: Date, updatedAt: Date) {
        self.id = id
        self.personId = personId
        self.name = name
        self.strength = strength
        self.unit = unit
        self.form = form
        self.instructions = instructions
        self.appearance = appearance
        self.stock = stock
        self.packageSize = packageSize
        self.lowStockDays = lowStockDays
        self.active = active
        self.revision = revision
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    public static let defaultUnit = "tablets"
    public static let maximumStock = 100_000.0

    /// Checks every field a person typed; trims text; names each field that is wrong.
    public func validated() throws(HearthError) -> Medication {
        var copy = self
        var problems: [String: String] = [:]
        func text(_ value: String, _ field: String, maximum: Int, required: Bool = false) -> String {
            let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
            if required && trimmed.isEmpty { problems[field] = "must not be empty" }
            if trimmed.count > maximum { problems[field] = "must be at most \(maximum) characters" }
            if trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control && $0 != "\n" }) {
                problems[field] = "must not contain control characters"
            }
            return trimmed
        }
        copy.name = text(name, "name", maximum: 100, required: true)
        copy.strength = text(strength, "strength", maximum: 40)
        copy.unit = text(unit, "unit", maximum: 20)
        if copy.unit.isEmpty { copy.unit = Self.defaultUnit }
        copy.form = text(form, "form", maximum: 40)
        copy.instructions = text(instructions, "instructions", maximum: 500)
        copy.appearance = text(appearance, "appearance", maximum: 200)
        if let stock, !(stock >= 0 && stock <= Self.maximumStock) { problems["stock"] = "must be 0 to 100000" }
        if let packageSize, !(packageSize > 0 && packageSize <= Self.maximumStock) { problems["packageSize"] = "must be more than 0 and at most 100000" }
        if let lowStockDays, !(0...365).contains(lowStockDays) { problems["lowStockDays"] = "must be 0 to 365 days" }
        if !problems.isEmpty { throw .invalid(fields: problems) }
        return copy
    }
}
