import Foundation
import GRDB
import HearthCore

extension HearthStore {
    /// Adds someone to the household: an admin's (the household's `.edit`).
    public func addPerson(name: String, role: Person.Role, as adder: PermissionPolicy.Actor, by origin: String) async throws -> Person {
        let validName = try Person.validatedName(name)
        return try await write(by: origin) { transaction in
            try PermissionPolicy.require(adder, .edit, .household, what: "The household")
            return try Self.insertPerson(name: validName, role: role, in: &transaction)
        }
    }

    static func insertPerson(name: String, role: Person.Role, in transaction: inout WriteTransaction) throws -> Person {
        if try Self.person(named: name, transaction.db) != nil {
            throw HearthError.conflict("Someone called \(name) is already in the household")
        }
        let person = Person(id: UUID.random(), name: name, role: role, createdAt: transaction.time)
        try transaction.db.cachedExecute(sql: "INSERT INTO people (id, name, role, createdAt) VALUES (?, ?, ?, ?)",
            arguments: [person.id.text, person.name, person.role.rawValue, person.createdAt.millisecondsSince1970]
        )
        try transaction.record(entity: .person, entityId: person.id.text, op: .create,
                               payload: ["name": .string(person.name), "role": .string(person.role.rawValue)])
        return person
    }

    /// Everyone in the household, by name; archived people only when asked.
    public func people(includingArchived: Bool = false) async throws -> [Person] {
        try await pool.read { db in
            try Row.fetchAll(db.cachedStatement(sql: """
                SELECT * FROM people \(includingArchived ? "" : "WHERE archivedAt IS NULL") ORDER BY name COLLATE NOCASE
                """)).map(Self.person(from:))
        }
    }

    public func person(id: UUID) async throws -> Person? {
        try await pool.read { db in try Self.person(id: id, db) }
    }

    /// The current (not archived) person with this name, ignoring case.
    public func person(named name: String) async throws -> Person? {
        try await pool.read { db in try Self.person(named: name, db) }
    }

    static func person(id: UUID, _ db: Database) throws -> Person? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM people WHERE id = ?"), arguments: [id.text]).map(person(from:))
    }

    static func person(named name: String, _ db: Database) throws -> Person? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM people WHERE name = ? COLLATE NOCASE AND archivedAt IS NULL"),
                         arguments: [name.trimmingCharacters(in: .whitespacesAndNewlines)]).map(person(from:))
    }

    /// Archives a person and revokes their devices and alert apps; their
    /// history stays. For an admin (or the hub's terminal); never the
    /// household's last admin.
    public func archivePerson(id: UUID, as archiver: PermissionPolicy.Actor, by origin: String) async throws -> Person {
        try await write(by: origin) { transaction in
            guard var person = try Self.person(id: id, transaction.db), person.archivedAt == nil else {
                throw HearthError.notFound(what: "That person")
            }
            try PermissionPolicy.require(archiver, .delete, .person(id), what: "That person")
            if person.role == .admin, try Self.activeAdmins(transaction.db) <= 1 {
                throw HearthError.conflict("\(person.name) is the household's only admin: make someone else an admin first")
            }
            person.archivedAt = transaction.time
            try transaction.db.cachedExecute(sql: "UPDATE people SET archivedAt = ? WHERE id = ?",
                                       arguments: [transaction.time.millisecondsSince1970, id.text])
            try transaction.record(entity: .person, entityId: id.text, op: .update,
                                   payload: ["archivedAt": .number(Double(transaction.time.millisecondsSince1970))])
            // Told nothing more away from home, and her secret push topic is gone
            // (restored, she chooses again and gets a new one).
            try transaction.db.cachedExecute(sql: "DELETE FROM away_choices WHERE personId = ?", arguments: [id.text])
            for deviceId in try String.fetchAll(transaction.db.cachedStatement(sql: "SELECT id FROM devices WHERE personId = ? AND revokedAt IS NULL"),
                                                arguments: [id.text]) {
                try Self.revokeDevice(id: deviceId, in: &transaction)
            }
            try Self.revokeAlertApps(of: id, in: &transaction)
            return person
        }
    }

    /// Says that a caregiver (or admin) looks after a senior, if `linker`
    /// may shape the household (an admin; `HouseholdRoster.terminal`). A
    /// link that is there already is a conflict, nothing written.
    public func link(caregiver caregiverId: UUID, senior seniorId: UUID, as linker: PermissionPolicy.Actor, by origin: String) async throws {
        try await write(by: origin) { transaction in
            try PermissionPolicy.require(linker, .edit, .household, what: "The household")
            guard let caregiver = try Self.person(id: caregiverId, transaction.db), caregiver.archivedAt == nil,
                  let senior = try Self.person(id: seniorId, transaction.db), senior.archivedAt == nil
            else { throw HearthError.notFound(what: "That person") }
            guard caregiver.role != .senior else {
                throw HearthError.invalid(fields: ["caregiver": "\(caregiver.name) is a senior, not a caregiver"])
            }
            guard senior.role == .senior else {
                throw HearthError.invalid(fields: ["senior": "\(senior.name) is not a senior"])
            }
            try transaction.db.cachedExecute(sql: "INSERT OR IGNORE INTO care_links (caregiverId, seniorId, createdAt) VALUES (?, ?, ?)",
                arguments: [caregiverId.text, seniorId.text, transaction.time.millisecondsSince1970])
            guard transaction.db.changesCount > 0 else {
                throw HearthError.conflict("\(caregiver.name) already looks after \(senior.name)")
            }
            try transaction.record(entity: .careLink, entityId: "\(caregiverId.text):\(seniorId.text)", op: .create,
                                   payload: ["caregiverId": .string(caregiverId.text), "seniorId": .string(seniorId.text)])
        }
    }

    /// Says that a caregiver no longer looks after a senior: from the next
    /// request her devices see nothing more of the senior, and her open live
    /// streams and alert apps are closed to reconnect as who she is now.
    public func removeCareLink(caregiver caregiverId: UUID, senior seniorId: UUID, as linker: PermissionPolicy.Actor, by origin: String) async throws {
        try await write(by: origin) { transaction in
            try PermissionPolicy.require(linker, .edit, .household, what: "The household")
            try transaction.db.cachedExecute(sql: "DELETE FROM care_links WHERE caregiverId = ? AND seniorId = ?",
                                             arguments: [caregiverId.text, seniorId.text])
            guard transaction.db.changesCount > 0 else { throw HearthError.notFound(what: "That care link") }
            try transaction.record(entity: .careLink, entityId: "\(caregiverId.text):\(seniorId.text)", op: .delete,
                                   payload: ["caregiverId": .string(caregiverId.text), "seniorId": .string(seniorId.text)])
        }
    }

    /// Every care link: for each caregiver (or admin), the seniors they look after.
    public func careLinks() async throws -> [UUID: Set<UUID>] {
        try await pool.read { db in
            var links: [UUID: Set<UUID>] = [:]
            for row in try Row.fetchAll(db.cachedStatement(sql: "SELECT caregiverId, seniorId FROM care_links")) {
                guard let caregiver = UUID(text: row["caregiverId"]), let senior = UUID(text: row["seniorId"]) else { continue }
                links[caregiver, default: []].insert(senior)
            }
            return links
        }
    }

    /// The seniors a person looks after.
    public func seniors(caredForBy caregiverId: UUID) async throws -> Set<UUID> {
        try await pool.read { db in try Self.seniors(caredForBy: caregiverId, db) }
    }

    static func seniors(caredForBy caregiverId: UUID, _ db: Database) throws -> Set<UUID> {
        Set(try String.fetchAll(db.cachedStatement(sql: "SELECT seniorId FROM care_links WHERE caregiverId = ?"), arguments: [caregiverId.text])
            .compactMap(UUID.init(text:)))
    }

    static func caregivers(of seniorId: UUID, _ db: Database) throws -> Set<UUID> {
        Set(try String.fetchAll(db.cachedStatement(sql: "SELECT caregiverId FROM care_links WHERE seniorId = ?"), arguments: [seniorId.text])
            .compactMap(UUID.init(text:)))
    }

    /// How the permission policy sees this person now; nil for someone
    /// unknown or archived.
    public func actor(of personId: UUID) async throws -> PermissionPolicy.Actor? {
        try await pool.read { db in
            guard let person = try Self.person(id: personId, db), person.archivedAt == nil else { return nil }
            return try Self.actor(for: person, db)
        }
    }

    /// How the permission policy sees `person`: their role and their care
    /// circle both ways, as the care links say now.
    static func actor(for person: Person, _ db: Database) throws -> PermissionPolicy.Actor {
        PermissionPolicy.Actor(personId: person.id, role: person.role, caresFor: try seniors(caredForBy: person.id, db),
                               lookedAfterBy: try caregivers(of: person.id, db),
                               managesOwnMedications: person.role == .senior && person.managesOwnMedications)
    }

    static func person(from row: Row) throws -> Person {
        guard let id = UUID(text: row["id"]), let role = Person.Role(rawValue: row["role"]) else {
            throw DatabaseError(message: "people row \(row["id"] as String) is damaged")
        }
        return Person(id: id, name: row["name"], role: role, createdAt: Date(millisecondsSince1970: row["createdAt"]),
                      archivedAt: (row["archivedAt"] as Int64?).map(Date.init(millisecondsSince1970:)), phone: row["phone"],
                      managesOwnMedications: row["managesOwnMedications"] ?? false)
    }
}
