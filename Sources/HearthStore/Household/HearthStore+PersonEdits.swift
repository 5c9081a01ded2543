import Foundation
import GRDB
import HearthCore

/// What may change about a person from the Household page or the terminal:
/// their name, phone number and role, and whether a senior manages her own
/// medications. nil leaves a field as it is; `phone: .some(nil)` removes
/// the number.
public struct PersonChange: Sendable, Equatable {
    public var name: String?
    public var phone: String??
    public var role: Person.Role?
    public var managesOwnMedications: Bool?
    /// The editor's own name for this senior ("Mama"), seen only by them;
    /// `.some(nil)` removes it. Needs only that they look after her.
    public var alias: String??

    public init(name: String? = nil, phone: String?? = nil, role: Person.Role? = nil, managesOwnMedications: Bool? = nil,
                alias: String?? = nil) {
        self.name = name
        self.phone = phone
        self.role = role
        self.managesOwnMedications = managesOwnMedications
        self.alias = alias
    }

    /// Whether it changes the person themself (not only the editor's alias).
    var changesPerson: Bool { name != nil || phone != nil || role != nil || managesOwnMedications != nil }
}

extension HearthStore {
    /// Renames a person, sets or removes their number, or changes their role.
    /// Anyone changes their own name and number; an admin anyone's, and only
    /// an admin a role. Never leaves the household without an admin, and
    /// never leaves a care link between people who are not a caregiver and a
    /// senior (unlink first). All of it or nothing.
    public func updatePerson(id: UUID, _ change: PersonChange, as editor: PermissionPolicy.Actor, by origin: String) async throws -> Person {
        let name = try change.name.map(Person.validatedName)
        // A number given is checked before anything is written; an empty one removes it.
        var checked: String?? = nil
        if let given = change.phone { checked = .some(try given.flatMap { try PhoneNumber.validated($0) }) }
        let phone = checked
        var checkedAlias: String?? = nil
        if let given = change.alias {
            checkedAlias = .some(try given.flatMap { raw throws(HearthError) -> String? in
                raw.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
                    ? nil : try Person.validatedAlias(raw)
            })
        }
        let alias = checkedAlias
        return try await write(by: origin) { transaction in
            let db = transaction.db
            guard var person = try Self.person(id: id, db), person.archivedAt == nil else { throw HearthError.notFound(what: "That person") }
            if change.changesPerson { try PermissionPolicy.require(editor, .edit, .person(id), what: "That person") }
            if let alias { try Self.setAlias(alias, for: id, by: editor, in: &transaction) }
            let before = person
            if let name, name != person.name {
                if let other = try Self.person(named: name, db), other.id != id {
                    throw HearthError.conflict("Someone called \(other.name) is already in the household")
                }
                person.name = name
            }
            if let phone { person.phone = phone }
            if let role = change.role, role != person.role {
                try PermissionPolicy.require(editor, .edit, .household, what: "The household")
                try Self.checkRoleChange(of: person, to: role, db)
                person.role = role
            }
            if let manages = change.managesOwnMedications, manages != person.managesOwnMedications {
                try PermissionPolicy.require(editor, .edit, .household, what: "The household")
                guard person.role == .senior || !manages else {
                    throw HearthError.invalid(fields: ["managesOwnMedications": "only a senior's own medications are hers to manage"])
                }
                person.managesOwnMedications = manages
            }
            // A senior no more: her medications were never hers to manage as such.
            if person.role != .senior { person.managesOwnMedications = false }
            guard person != before else { return person }
            try db.cachedExecute(sql: "UPDATE people SET name = ?, phone = ?, role = ?, managesOwnMedications = ? WHERE id = ?",
                                 arguments: [person.name, person.phone, person.role.rawValue, person.managesOwnMedications, id.text])
            try transaction.record(entity: .person, entityId: id.text, op: .update, payload: Self.payload(of: person, before: before))
            return person
        }
    }

    /// Brings an archived person back, with no devices: they pair again.
    public func restorePerson(id: UUID, as restorer: PermissionPolicy.Actor, by origin: String) async throws -> Person {
        try await write(by: origin) { transaction in
            guard var person = try Self.person(id: id, transaction.db), person.archivedAt != nil else {
                throw HearthError.notFound(what: "That archived person")
            }
            try PermissionPolicy.require(restorer, .delete, .person(id), what: "That person")
            if let other = try Self.person(named: person.name, transaction.db) {
                throw HearthError.conflict("Someone called \(other.name) is in the household now: rename one of them first")
            }
            person.archivedAt = nil
            try transaction.db.cachedExecute(sql: "UPDATE people SET archivedAt = NULL WHERE id = ?", arguments: [id.text])
            try transaction.record(entity: .person, entityId: id.text, op: .update,
                                   payload: ["name": .string(person.name), "role": .string(person.role.rawValue), "restored": .bool(true)])
            return person
        }
    }

    /// A caregiver's own name for a senior she looks after, kept on their
    /// care link. The log says only that it changed (everyone hears of care
    /// links), never the name; the audit leaves it out.
    static func setAlias(_ alias: String?, for seniorId: UUID, by caregiver: PermissionPolicy.Actor,
                         in transaction: inout WriteTransaction) throws {
        let db = transaction.db
        let current = try Row.fetchOne(db.cachedStatement(sql: "SELECT alias FROM care_links WHERE caregiverId = ? AND seniorId = ?"),
                                       arguments: [caregiver.personId.text, seniorId.text])
        guard let current else { throw HearthError.invalid(fields: ["alias": "is for a senior you look after"]) }
        guard (current["alias"] as String?) != alias else { return }
        try db.cachedExecute(sql: "UPDATE care_links SET alias = ? WHERE caregiverId = ? AND seniorId = ?",
                             arguments: [alias, caregiver.personId.text, seniorId.text])
        try transaction.record(entity: .careLink, entityId: "\(caregiver.personId.text):\(seniorId.text)", op: .update, payload: [
            "caregiverId": .string(caregiver.personId.text), "seniorId": .string(seniorId.text), "aliasChanged": .bool(true),
        ])
    }

    /// The names `caregiverId` gives the seniors she looks after.
    public func aliases(givenBy caregiverId: UUID) async throws -> [UUID: String] {
        try await pool.read { db in
            var aliases: [UUID: String] = [:]
            for row in try Row.fetchAll(db.cachedStatement(sql: "SELECT seniorId, alias FROM care_links WHERE caregiverId = ? AND alias IS NOT NULL"),
                                        arguments: [caregiverId.text]) {
                if let senior = UUID(text: row["seniorId"]) { aliases[senior] = row["alias"] }
            }
            return aliases
        }
    }

    static func activeAdmins(_ db: Database) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM people WHERE role = 'admin' AND archivedAt IS NULL")) ?? 0
    }

    /// A role change that would leave no admin, or a link that no longer
    /// joins a caregiver to a senior, is refused, naming what to do first.
    static func checkRoleChange(of person: Person, to role: Person.Role, _ db: Database) throws {
        if person.role == .admin, role != .admin, try activeAdmins(db) <= 1 {
            throw HearthError.conflict("\(person.name) is the household's only admin: make someone else an admin first")
        }
        if role == .senior, !(try seniors(caredForBy: person.id, db)).isEmpty {
            throw HearthError.conflict("\(person.name) looks after someone: unlink them first, then make \(person.name) a senior")
        }
        if person.role == .senior, !(try caregivers(of: person.id, db)).isEmpty {
            throw HearthError.conflict("Someone looks after \(person.name): unlink them first, then change \(person.name)'s role")
        }
    }

    /// A person's change as the log and live listeners hear it: who they are
    /// now, and for the audit what their name was.
    static func payload(of person: Person, before: Person) -> JSONValue {
        var fields: [String: JSONValue] = [
            "name": .string(person.name), "role": .string(person.role.rawValue), "phone": person.phone.map(JSONValue.string) ?? .null,
            "managesOwnMedications": .bool(person.managesOwnMedications),
        ]
        if before.name != person.name { fields["formerName"] = .string(before.name) }
        if before.role != person.role { fields["formerRole"] = .string(before.role.rawValue) }
        return .object(fields)
    }
}
