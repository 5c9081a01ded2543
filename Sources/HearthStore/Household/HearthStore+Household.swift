import Foundation
import GRDB
import HearthCore

extension HearthStore {
    /// The household, created on first start with the given name and time zone.
    @discardableResult
    public func ensureHousehold(name: String, timeZone: String) async throws -> Household {
        if let existing = try await household() { return existing }
        let validName = try Household.validatedName(name)
        let validZone = try Household.validatedTimeZone(timeZone)
        return try await write(by: "hub") { transaction in
            if let existing = try Self.household(transaction.db) { return existing }
            let household = Household(id: UUID.random(), name: validName, timeZone: validZone, createdAt: transaction.time)
            try transaction.db.cachedExecute(sql: "INSERT INTO household (id, name, timeZone, createdAt) VALUES (?, ?, ?, ?)",
                arguments: [household.id.text, household.name, household.timeZone,
                            household.createdAt.millisecondsSince1970]
            )
            try transaction.record(entity: .household, entityId: household.id.text,
                                   op: .create, payload: household.changePayload)
            return household
        }
    }

    public func household() async throws -> Household? {
        try await pool.read { db in try Self.household(db) }
    }

    static func household(_ db: Database) throws -> Household? {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT id, name, timeZone, language, createdAt FROM household LIMIT 1")) else {
            return nil
        }
        let idText: String = row["id"]
        guard let id = UUID(text: idText) else {
            throw DatabaseError(message: "household id \(idText) is not a UUID")
        }
        // A language this version does not know (a newer hub's backup) reads as English.
        return Household(id: id, name: row["name"], timeZone: row["timeZone"],
                         language: HouseholdLanguage(rawValue: row["language"]) ?? .english,
                         createdAt: Date(millisecondsSince1970: row["createdAt"]))
    }

    /// Renames the household, moves it to another time zone or changes the
    /// language the hub speaks. Unchanged fields write nothing and append no change.
    /// The household's name, time zone and language: an admin's to change.
    public func updateHousehold(name: String?, timeZone: String?, language: String? = nil,
                                as editor: PermissionPolicy.Actor, by origin: String) async throws -> Household {
        let validName = try name.map { name throws(HearthError) in try Household.validatedName(name) }
        let validZone = try timeZone.map { zone throws(HearthError) in try Household.validatedTimeZone(zone) }
        let validLanguage = try language.map { language throws(HearthError) in try HouseholdLanguage.validated(language) }
        return try await write(by: origin) { transaction in
            try PermissionPolicy.require(editor, .edit, .household, what: "The household")
            guard var household = try Self.household(transaction.db) else {
                throw HearthError.notFound(what: "The household")
            }
            var changed: [String: JSONValue] = [:]
            if let validName, validName != household.name {
                household.name = validName
                changed["name"] = .string(validName)
            }
            if let validZone, validZone != household.timeZone {
                household.timeZone = validZone
                changed["timeZone"] = .string(validZone)
            }
            if let validLanguage, validLanguage != household.language {
                household.language = validLanguage
                changed["language"] = .string(validLanguage.rawValue)
            }
            guard !changed.isEmpty else { return household }
            try transaction.db.cachedExecute(sql: "UPDATE household SET name = ?, timeZone = ?, language = ? WHERE id = ?",
                arguments: [household.name, household.timeZone, household.language.rawValue, household.id.text]
            )
            try transaction.record(entity: .household, entityId: household.id.text,
                                   op: .update, payload: .object(changed))
            return household
        }
    }
}

extension Household {
    var changePayload: JSONValue {
        ["name": .string(name), "timeZone": .string(timeZone), "language": .string(language.rawValue)]
    }
}
