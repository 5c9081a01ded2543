import Foundation
import HearthCore

extension MedicationsController {
    struct NewMedication: Decodable {
        var personId: UUID
        var name: String?
        var strength: String?
        var unit: String?
        var form: String?
        var instructions: String?
        var appearance: String?
        var stock: Double?
        var packageSize: Double?
        var lowStockDays: Int?
        /// Added with the medication; if one is wrong, nothing is written.
        var schedules: [ScheduleBody]?

        /// The medication as typed, before the store gives it an ID and times.
        func draft(at now: Date) -> Medication {
            Medication(personId: personId, name: name ?? "", strength: strength ?? "", unit: unit ?? "", form: form ?? "",
                       instructions: instructions ?? "", appearance: appearance ?? "", stock: stock, packageSize: packageSize,
                       lowStockDays: lowStockDays, createdAt: now, updatedAt: now)
        }
    }

    /// Fields a caregiver may change. An absent field stays as it is; for the
    /// numbers that may be unknown (stock, packageSize, lowStockDays) `null`
    /// clears them, which is why those are read by hand: plain `Decodable`
    /// cannot tell "absent" from "null".
    struct MedicationPatch: Decodable {
        var name: String?
        var strength: String?
        var unit: String?
        var form: String?
        var instructions: String?
        var appearance: String?
        /// `.some(nil)` clears; `nil` leaves as it is.
        var stock: Double??
        var packageSize: Double??
        var lowStockDays: Int??
        /// `true` brings back a medication that was stopped (DELETE).
        var active: Bool?

        enum CodingKeys: String, CodingKey {
            case name, strength, unit, form, instructions, appearance, stock, packageSize, lowStockDays, active
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            func clearable<T: Decodable>(_ type: T.Type, _ key: CodingKeys) throws -> T?? {
                container.contains(key) ? .some(try container.decodeIfPresent(T.self, forKey: key)) : .none
            }
            name = try container.decodeIfPresent(String.self, forKey: .name)
            strength = try container.decodeIfPresent(String.self, forKey: .strength)
            unit = try container.decodeIfPresent(String.self, forKey: .unit)
            form = try container.decodeIfPresent(String.self, forKey: .form)
            instructions = try container.decodeIfPresent(String.self, forKey: .instructions)
            appearance = try container.decodeIfPresent(String.self, forKey: .appearance)
            stock = try clearable(Double.self, .stock)
            packageSize = try clearable(Double.self, .packageSize)
            lowStockDays = try clearable(Int.self, .lowStockDays)
            active = try container.decodeIfPresent(Bool.self, forKey: .active)
        }

        func apply(to medication: inout Medication) {
            if let name { medication.name = name }
            if let strength { medication.strength = strength }
            if let unit { medication.unit = unit }
            if let form { medication.form = form }
            if let instructions { medication.instructions = instructions }
            if let appearance { medication.appearance = appearance }
            if let stock { medication.stock = stock }
            if let packageSize { medication.packageSize = packageSize }
            if let lowStockDays { medication.lowStockDays = lowStockDays }
            if let active { medication.active = active }
        }
    }

    struct Refill: Decodable {
        var packages: Int?
    }
}
