import Foundation
import HearthCore
import HearthStore

/// What `hearth people …` and `hearth devices …` do, as text for the admin's terminal.
public struct HouseholdRoster: Sendable {
    let store: HearthStore

    public init(store: HearthStore) {
        self.store = store
    }

    public func peopleTable(includingArchived: Bool = false) async throws -> String {
        let people = try await store.people(includingArchived: includingArchived)
        guard !people.isEmpty else { return "Nobody yet. Add someone with: hearth people add NAME --role ROLE\n" }
        var rows = [["ID", "NAME", "ROLE", "PHONE", "LOOKS AFTER", "SINCE"]]
        let names = Dictionary(uniqueKeysWithValues: people.map { ($0.id, $0.name) })
        for person in people {
            let seniors = try await store.seniors(caredForBy: person.id).compactMap { names[$0] }.sorted()
            rows.append([String(person.id.text.prefix(8)), person.name + (person.archivedAt == nil ? "" : " (archived)"),
                         person.role.rawValue, person.phone ?? "", seniors.joined(separator: ", "), Self.day(person.createdAt)])
        }
        return Self.table(rows)
    }

    public func add(name: String, role: Person.Role) async throws -> String {
        let person = try await store.addPerson(name: name, role: role, as: Self.terminal, by: "cli")
        return "Added: \(person.name) (\(person.role.rawValue)). Pair a device for them with: sudo hearth pair --person \"\(person.name)\"\n"
    }

    public func archive(_ nameOrID: String) async throws -> String {
        let person = try await find(nameOrID)
        _ = try await store.archivePerson(id: person.id, as: .hubTerminal, by: "cli")
        return "Archived: \(person.name). Their devices no longer work; their history stays.\n"
    }

    public func rename(_ nameOrID: String, to name: String) async throws -> String {
        let person = try await find(nameOrID)
        let renamed = try await store.updatePerson(id: person.id, PersonChange(name: name), as: Self.terminal, by: "cli")
        return "Renamed: \(person.name) is now \(renamed.name).\n"
    }

    public func setPhone(of nameOrID: String, to number: String) async throws -> String {
        let person = try await find(nameOrID)
        let changed = try await store.updatePerson(id: person.id, PersonChange(phone: .some(number)), as: Self.terminal, by: "cli")
        return changed.phone.map { "Phone: \(changed.name) is called on \($0).\n" } ?? "Phone: \(changed.name) has no number now.\n"
    }

    public func setRole(of nameOrID: String, to role: Person.Role) async throws -> String {
        let person = try await find(nameOrID)
        let changed = try await store.updatePerson(id: person.id, PersonChange(role: role), as: Self.terminal, by: "cli")
        return "Role: \(changed.name) is now \(changed.role == .admin ? "an" : "a") \(changed.role.rawValue).\n"
    }

    public func restore(_ nameOrID: String) async throws -> String {
        let person = try await find(nameOrID, archived: true)
        let restored = try await store.restorePerson(id: person.id, as: Self.terminal, by: "cli")
        return "Restored: \(restored.name). Pair a device for them with: sudo hearth pair --person \"\(restored.name)\"\n"
    }

    public func link(caregiver: String, senior: String) async throws -> String {
        let carer = try await find(caregiver)
        let cared = try await find(senior)
        try await store.link(caregiver: carer.id, senior: cared.id, as: Self.terminal, by: "cli")
        return "Linked: \(carer.name) looks after \(cared.name).\n"
    }

    public func unlink(caregiver: String, senior: String) async throws -> String {
        let carer = try await find(caregiver)
        let cared = try await find(senior)
        try await store.removeCareLink(caregiver: carer.id, senior: cared.id, as: Self.terminal, by: "cli")
        return "Unlinked: \(carer.name) no longer looks after \(cared.name).\n"
    }

    public func devicesTable() async throws -> String {
        let devices = try await store.devices(includingRevoked: true)
        guard !devices.isEmpty else { return "No devices are paired. Add one with: sudo hearth pair\n" }
        let people = Dictionary(uniqueKeysWithValues: try await store.people(includingArchived: true).map { ($0.id, $0) })
        var rows = [["ID", "DEVICE", "PERSON", "LAST SEEN", "STATUS"]]
        for device in devices {
            let person = people[device.personId]
            rows.append([String(device.id.text.prefix(8)), device.name,
                         person.map { "\($0.name) (\($0.role.rawValue))" } ?? "?",
                         device.lastSeenAt.map(Self.moment) ?? "never",
                         device.revokedAt == nil ? "active" : "revoked"])
        }
        return Self.table(rows)
    }

    /// Who acts from the hub's terminal (`sudo hearth …`): its administrator,
    /// outside the household's people, with an admin's say.
    static let terminal = PermissionPolicy.Actor.hubTerminal

    /// Revokes by full ID or the 8-character prefix `devices list` shows.
    public func revoke(_ idOrPrefix: String) async throws -> String {
        let wanted = idOrPrefix.lowercased()
        let matches = try await store.devices(includingRevoked: false).filter { $0.id.text.hasPrefix(wanted) }
        guard wanted.count >= 4, let device = matches.first else {
            throw HearthError.notFound(what: "An active device with ID \(idOrPrefix)")
        }
        guard matches.count == 1 else { throw HearthError.conflict("\(idOrPrefix) matches several devices; give more of the ID") }
        try await store.revokeDevice(id: device.id, as: Self.terminal, by: "cli")
        return "Revoked: \(device.name). It is signed out on its next request.\n"
    }

    /// A person by name or ID prefix; with `archived`, an archived person (by name or ID).
    func find(_ nameOrID: String, archived: Bool = false) async throws -> Person {
        if !archived, let person = try await store.person(named: nameOrID) { return person }
        let prefix = nameOrID.lowercased()
        let wanted = nameOrID.trimmingCharacters(in: .whitespaces).lowercased()
        let matches = try await store.people(includingArchived: archived).filter { person in
            guard (person.archivedAt != nil) == archived else { return false }
            return (archived && person.name.lowercased() == wanted) || (prefix.count >= 4 && person.id.text.hasPrefix(prefix))
        }
        guard matches.count == 1, let person = matches.first else {
            throw HearthError.notFound(what: "A person called \(nameOrID)")
        }
        return person
    }

    static func table(_ rows: [[String]]) -> String {
        let widths = (0..<rows[0].count).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }.joined(separator: "\n") + "\n"
    }

    static func day(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day())
    }

    static func moment(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: false))
    }
}
