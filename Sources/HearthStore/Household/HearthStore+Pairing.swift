import Foundation
import GRDB
import HearthCore

/// Who a pairing code is for.
public enum PairingInvitee: Sendable, Equatable {
    case person(UUID)
    /// Someone new, created when the code is used.
    case newPerson(name: String, role: Person.Role)
}

/// A pairing code just made; the code itself exists only here and on screen.
public struct PairingInvitation: Sendable {
    public var id: UUID
    public var code: PairingCode
    public var expiresAt: Date
    public var personName: String
    public var role: Person.Role
}

public enum PairingStatus: Sendable, Equatable {
    case waiting
    case paired(deviceName: String, personName: String, role: Person.Role)
    case expired
    /// Too many wrong short codes were tried while it was open.
    case burned
}

/// A code as a device presents it.
public enum PresentedPairingCode: Sendable {
    /// The secret from the QR code's URL fragment.
    case secret(String)
    /// The `XXXX-XXXX` code typed by hand.
    case shortCode(String)
}

extension HearthStore {
    /// A pairing code for `invitee`. `maker` is the person whose device asks
    /// (decided by the permission policy in this transaction, and again when
    /// the code is redeemed); `Actor.hubTerminal` for the admin at the hub's
    /// own console (`sudo hearth pair`). No default: nobody is an admin by
    /// being left out.
    public func createPairing(
        for invitee: PairingInvitee, deviceName: String?, lifetime: Duration = PairingCode.defaultLifetime, by origin: String,
        maker: PermissionPolicy.Actor, seniorInvitesNeedApproval: Bool = true
    ) async throws -> PairingInvitation {
        let validDeviceName = try deviceName.map { name throws(HearthError) in try Device.validatedName(name) }
        let newName = try { () throws(HearthError) -> String? in
            if case .newPerson(let name, _) = invitee { return try Person.validatedName(name) }
            return nil
        }()
        let code = PairingCode.generate()
        return try await write(by: origin) { transaction in
            let personName: String
            let role: Person.Role
            var personId: String?
            switch invitee {
            case .person(let id):
                guard let person = try Self.person(id: id, transaction.db), person.archivedAt == nil else {
                    throw HearthError.notFound(what: "That person")
                }
                (personName, role, personId) = (person.name, person.role, id.text)
            case .newPerson(_, let newRole):
                (personName, role) = (newName ?? "", newRole)
            }
            // A senior invites someone new to look after her: the newcomer
            // will look after her, and the policy decides on that.
            let linkToSenior = personId == nil && maker.role == .senior ? maker.personId : nil
            if try !Self.mayPair(personId.flatMap(UUID.init(text:)), role: role, maker: maker, transaction.db,
                                            newcomerLooksAfter: Set([linkToSenior].compactMap { $0 })) {
                throw HearthError.forbidden("Only an admin can add a device for someone already in the household; a senior's device invites only someone new to look after her")
            }
            if personId == nil, try Self.person(named: personName, transaction.db) != nil {
                throw HearthError.conflict("Someone called \(personName) is already in the household; pair with --person instead")
            }
            let id = UUID.random()
            let expiresAt = transaction.time.addingTimeInterval(Double(lifetime.components.seconds))
            try transaction.db.cachedExecute(sql: """
                    INSERT INTO pairing_codes (id, secretHash, shortCodeHash, personId, newPersonName, newPersonRole,
                                               deviceName, createdBy, createdAt, expiresAt, linkToSeniorId, needsApproval)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [id.text, SecretHash.of(code.secret), SecretHash.of(code.shortCode), personId,
                            personId == nil ? personName : nil, personId == nil ? role.rawValue : nil,
                            validDeviceName, transaction.origin, transaction.time.millisecondsSince1970,
                            expiresAt.millisecondsSince1970, linkToSenior?.text,
                            // The household asks an admin to approve what a senior's tablet pairs.
                            seniorInvitesNeedApproval && maker.role == .senior])
            var logged: [String: JSONValue] = ["personName": .string(personName), "role": .string(role.rawValue)]
            // The admins' audit shows whom a senior invited.
            if let linkToSenior { logged["seniorId"] = .string(linkToSenior.text) }
            try transaction.record(entity: .pairingCode, entityId: id.text, op: .create, payload: .object(logged))
            return PairingInvitation(id: id, code: code, expiresAt: expiresAt, personName: personName, role: role)
        }
    }

    /// Who made a pairing code (the change log's actor name), so only they follow it.
    public func pairingCreator(id: UUID) async throws -> String? {
        try await pool.read { db in
            try String.fetchOne(db.cachedStatement(sql: "SELECT createdBy FROM pairing_codes WHERE id = ?"), arguments: [id.text])
        }
    }

    public func pairingStatus(id: UUID) async throws -> PairingStatus {
        let now = self.currentTime().millisecondsSince1970
        return try await pool.read { db in
            guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM pairing_codes WHERE id = ?"), arguments: [id.text]) else {
                return .expired
            }
            if let deviceId: String = row["deviceId"],
               let device = try Row.fetchOne(db.cachedStatement(sql: "SELECT name, personId FROM devices WHERE id = ?"), arguments: [deviceId]),
               let personId = UUID(text: device["personId"]),
               let person = try Self.person(id: personId, db) {
                return .paired(deviceName: device["name"], personName: person.name, role: person.role)
            }
            if row["burnedAt"] as Int64? != nil { return .burned }
            if (row["expiresAt"] as Int64) <= now { return .expired }
            return .waiting
        }
    }

    /// Uses a pairing code: creates the device (and the person, if the code
    /// was for someone new) and returns the device's token, shown only now.
    /// An unknown, expired, used or burned code is refused alike, so a guesser
    /// learns nothing; a wrong short code changes nothing here (the server
    /// slows whoever sends them), so guessing ends nobody else's code.
    /// The device's name: `deviceName` if the person chose one, else the name
    /// the code was made with (`hearth pair --device-name`), else
    /// `suggestedDeviceName` (what the pairing page guessed: "Phone"), else
    /// "<person>'s device".
    public func redeemPairing(
        _ presented: PresentedPairingCode, deviceName: String?, suggestedDeviceName: String? = nil, userAgent: String?
    ) async throws -> (device: PairedDevice, token: String) {
        let validDeviceName = try deviceName.map { name throws(HearthError) in try Device.validatedName(name) }
        let validSuggestion = try suggestedDeviceName.map { name throws(HearthError) in
            try Device.validatedName(name, field: "suggestedDeviceName")
        }
        let token = Device.generateToken()
        let outcome: Result<PairedDevice, HearthError> = try await write(by: "pairing") { transaction in
            let now = transaction.time.millisecondsSince1970
            // A code made "later" than now was made before the clock went
            // back: its ten minutes cannot be told, so it pairs nobody.
            let open = "usedAt IS NULL AND burnedAt IS NULL AND expiresAt > ? AND createdAt <= ?"
            let row: Row?
            switch presented {
            case .secret(let secret):
                row = PairingCode.isWellFormedSecret(secret)
                    ? try Row.fetchOne(transaction.db.cachedStatement(sql: "SELECT * FROM pairing_codes WHERE secretHash = ? AND \(open)"),
                                       arguments: [SecretHash.of(secret), now, now])
                    : nil
            case .shortCode(let typed):
                guard let short = PairingCode.normalizedShortCode(typed) else { return .failure(Self.refusal) }
                row = try Row.fetchOne(transaction.db.cachedStatement(sql: "SELECT * FROM pairing_codes WHERE shortCodeHash = ? AND \(open)"),
                                       arguments: [SecretHash.of(short), now, now])
                // A wrong one burns nothing: the server slows its sender (WrongCodeBackOff).
                if row == nil { return .failure(Self.refusal) }
            }
            guard let row else { return .failure(Self.refusal) }
            return .success(try Self.pair(row, deviceName: validDeviceName, suggestedDeviceName: validSuggestion, userAgent: userAgent,
                                          token: token, in: &transaction))
        }
        return (try outcome.get(), token)
    }

    static let refusal = HearthError.notFound(what: "This pairing code (it may have expired or been used)")

    static func pair(_ code: Row, deviceName: String?, suggestedDeviceName: String? = nil, userAgent: String?, token: String,
                     in transaction: inout WriteTransaction) throws -> PairedDevice {
        let person: Person
        if let personIdText: String = code["personId"] {
            guard let id = UUID(text: personIdText), let existing = try Self.person(id: id, transaction.db),
                  existing.archivedAt == nil
            else { throw refusal }
            // A code a device made is honoured only while its maker may still
            // make it: a caregiver made an admin since, a link removed, or the
            // senior's tablet revoked, and the code pairs nobody.
            if let createdBy: String = code["createdBy"], createdBy.hasPrefix("device:") {
                guard let maker = try Self.maker(createdBy, transaction.db),
                      try Self.mayPair(id, role: existing.role, maker: maker, transaction.db)
                else { throw refusal }
            }
            person = existing
        } else {
            guard let role = Person.Role(rawValue: code["newPersonRole"] ?? "") else { throw refusal }
            // The same for someone new: the senior who invited them must still
            // be one, with her tablet, when the code is used.
            let linkToSenior = (code["linkToSeniorId"] as String?).flatMap(UUID.init(text:))
            if let createdBy: String = code["createdBy"], createdBy.hasPrefix("device:") {
                guard let maker = try Self.maker(createdBy, transaction.db),
                      try Self.mayPair(nil, role: role, maker: maker, transaction.db, newcomerLooksAfter: Set([linkToSenior].compactMap { $0 })),
                      linkToSenior == nil || linkToSenior == maker.personId
                else { throw refusal }
            }
            person = try insertPerson(name: code["newPersonName"], role: role, in: &transaction)
            if let senior = linkToSenior {
                try transaction.db.cachedExecute(sql: "INSERT INTO care_links (caregiverId, seniorId, createdAt) VALUES (?, ?, ?)",
                                                 arguments: [person.id.text, senior.text, transaction.time.millisecondsSince1970])
                try transaction.record(entity: .careLink, entityId: "\(person.id.text):\(senior.text)", op: .create, payload: [
                    "caregiverId": .string(person.id.text), "seniorId": .string(senior.text), "invitedBy": .string(senior.text),
                ])
            }
        }
        let device = Device(id: UUID.random(), personId: person.id, name: deviceName ?? code["deviceName"] ?? suggestedDeviceName ?? "\(person.name)'s device",
                            createdAt: transaction.time, lastSeenAt: transaction.time, userAgent: userAgent,
                            awaitingApproval: code["needsApproval"] ?? false)
        try transaction.db.cachedExecute(sql: """
                INSERT INTO devices (id, personId, name, tokenHash, createdAt, lastSeenAt, userAgent, awaitingApproval)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [device.id.text, person.id.text, device.name, SecretHash.of(token),
                        device.createdAt.millisecondsSince1970, device.createdAt.millisecondsSince1970, userAgent, device.awaitingApproval])
        try transaction.record(entity: .device, entityId: device.id.text, op: .create,
                               payload: ["name": .string(device.name), "personId": .string(person.id.text),
                                         "awaitingApproval": .bool(device.awaitingApproval)])
        let codeId: String = code["id"]
        try transaction.db.cachedExecute(sql: "UPDATE pairing_codes SET usedAt = ?, deviceId = ? WHERE id = ?",
                                   arguments: [transaction.time.millisecondsSince1970, device.id.text, codeId])
        try transaction.record(entity: .pairingCode, entityId: codeId, op: .update, payload: ["used": .bool(true)])
        return PairedDevice(device: device, person: person, actor: try actor(for: person, transaction.db))
    }

    /// Whether `maker` may make a code that pairs a device for this person
    /// (nil: someone new, who looks after nobody yet), by the permission policy.
    /// `newcomerLooksAfter`: for someone new, the seniors they will look
    /// after once paired (the senior who invites them).
    static func mayPair(_ personId: UUID?, role: Person.Role, maker: PermissionPolicy.Actor, _ db: Database,
                        newcomerLooksAfter: Set<UUID> = []) throws -> Bool {
        let looksAfter = try personId.map { try seniors(caredForBy: $0, db) } ?? newcomerLooksAfter
        return PermissionPolicy.decide(maker, .create, .pairing(person: personId, role: role, looksAfter: looksAfter)) == .allow
    }

    /// The person a pairing code's maker (`device:<id>`) acts as now; nil when
    /// that device is revoked or its person archived.
    static func maker(_ createdBy: String, _ db: Database) throws -> PermissionPolicy.Actor? {
        guard let deviceId = UUID(text: String(createdBy.dropFirst("device:".count))),
              let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT personId FROM devices WHERE id = ? AND revokedAt IS NULL"),
                                         arguments: [deviceId.text]),
              let personId = UUID(text: row["personId"]),
              let person = try person(id: personId, db), person.archivedAt == nil else { return nil }
        return try actor(for: person, db)
    }

    /// Whether any device has ever been paired; `serve` offers a first pairing when not.
    public func hasPairedDevices() async throws -> Bool {
        try await pool.read { db in try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM devices WHERE revokedAt IS NULL)")) ?? false }
    }
}
