import Foundation
import GRDB
import HearthCore

/// A device that presented a valid token, with who it acts as.
public struct PairedDevice: Sendable, Hashable {
    public var device: Device
    public var person: Person
    /// How the permission policy sees the person: with the seniors they look
    /// after and those who look after them.
    public var actor: PermissionPolicy.Actor

    /// The seniors the person looks after.
    public var caresFor: Set<UUID> { actor.caresFor }
}

extension HearthStore {
    /// How often a device's "last seen" is written; more often would fill the
    /// change log with bookkeeping.
    static let lastSeenGranularity: TimeInterval = 300

    public func devices(includingRevoked: Bool = true) async throws -> [Device] {
        try await pool.read { db in
            // Who paired each: the person of the device that made its code
            // (a code's createdBy is "device:<id>" when a device made it).
            try Row.fetchAll(db.cachedStatement(sql: """
                SELECT devices.*, maker.personId AS pairedBy FROM devices
                LEFT JOIN pairing_codes AS code ON code.deviceId = devices.id
                LEFT JOIN devices AS maker ON code.createdBy = 'device:' || maker.id
                \(includingRevoked ? "" : "WHERE devices.revokedAt IS NULL") ORDER BY devices.createdAt
                """)).map(Self.device(from:))
        }
    }

    /// The device holding this token, if it is paired, not revoked, and its
    /// person is not archived. Marks it as seen.
    public func pairedDevice(token: String, userAgent: String? = nil) async throws -> PairedDevice? {
        let hash = SecretHash.of(token)
        let (cached, generation) = pairedDevices.lookup(tokenHash: hash)
        let found: PairedDevice?
        if let cached {
            found = cached
        } else {
            found = try await pool.read { db in
                guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM devices WHERE tokenHash = ? AND revokedAt IS NULL"), arguments: [hash]) else {
                    return nil
                }
                let device = try Self.device(from: row)
                guard let person = try Self.person(id: device.personId, db), person.archivedAt == nil else { return nil }
                return PairedDevice(device: device, person: person, actor: try Self.actor(for: person, db))
            }
            if let found { pairedDevices.remember(found, tokenHash: hash, readAtGeneration: generation) }
        }
        guard var paired = found else { return nil }
        let now = self.currentTime()
        if paired.device.lastSeenAt.map({ now.timeIntervalSince($0) >= Self.lastSeenGranularity }) ?? true {
            let id = paired.device.id
            let personId = paired.person.id
            try await write(by: "device:\(id.text)") { transaction in
                try transaction.db.cachedExecute(sql: "UPDATE devices SET lastSeenAt = ?, userAgent = COALESCE(?, userAgent) WHERE id = ?",
                                           arguments: [transaction.time.millisecondsSince1970, userAgent, id.text])
                try transaction.record(entity: .device, entityId: id.text, op: .update,
                                       payload: ["lastSeenAt": .number(Double(transaction.time.millisecondsSince1970)),
                                                 "personId": .string(personId.text)])
            }
            paired.device.lastSeenAt = now
        }
        return paired
    }

    /// Lets a device a senior's invitation paired be used (an admin's say,
    /// when the household asks for it): from its next request it acts as its person.
    public func approveDevice(id: UUID, as approver: PermissionPolicy.Actor, by origin: String) async throws {
        try await write(by: origin) { transaction in
            guard let row = try Row.fetchOne(transaction.db.cachedStatement(sql: "SELECT personId, awaitingApproval FROM devices WHERE id = ? AND revokedAt IS NULL"),
                                             arguments: [id.text]),
                  let owner = UUID(text: row["personId"]) else {
                throw HearthError.notFound(what: "That device")
            }
            if PermissionPolicy.decide(approver, .edit, .household) == .deny {
                // Approving is an admin's. Someone else's device is, to anyone
                // else, no device at all: the same 404 as one that never was,
                // so the answer tells nobody which devices exist.
                try PermissionPolicy.require(approver, .view, .device(owner: owner), what: "That device")
                throw HearthError.forbidden("Only an admin approves a device")
            }
            guard row["awaitingApproval"] as Bool else { throw HearthError.conflict("That device does not wait for approval") }
            try transaction.db.cachedExecute(sql: "UPDATE devices SET awaitingApproval = 0 WHERE id = ?", arguments: [id.text])
            try transaction.record(entity: .device, entityId: id.text, op: .update,
                                   payload: ["approved": .bool(true), "personId": .string(owner.text)])
        }
    }

    /// Revokes a device; its token stops working on the next request.
    /// Signs a device out for good, if `revoker` may (an admin, or its own
    /// person): decided on the device as this transaction reads it.
    public func revokeDevice(id: UUID, as revoker: PermissionPolicy.Actor, by origin: String) async throws {
        try await write(by: origin) { transaction in
            guard let owner = try String.fetchOne(transaction.db.cachedStatement(sql: "SELECT personId FROM devices WHERE id = ? AND revokedAt IS NULL"),
                                                  arguments: [id.text]).flatMap(UUID.init(text:)) else {
                throw HearthError.notFound(what: "That device")
            }
            try PermissionPolicy.require(revoker, .delete, .device(owner: owner), what: "That device")
            try Self.revokeDevice(id: id.text, in: &transaction)
        }
    }

    static func revokeDevice(id: String, in transaction: inout WriteTransaction) throws {
        let personId = try String.fetchOne(transaction.db.cachedStatement(sql: "SELECT personId FROM devices WHERE id = ?"), arguments: [id]) ?? ""
        try transaction.db.cachedExecute(sql: "UPDATE devices SET revokedAt = ? WHERE id = ?",
                                   arguments: [transaction.time.millisecondsSince1970, id])
        try transaction.record(entity: .device, entityId: id, op: .update,
                               payload: ["revokedAt": .number(Double(transaction.time.millisecondsSince1970)),
                                         "personId": .string(personId)])
        // A removed device (a lost phone) may have been subscribed to her
        // secret push topic: it is made anew, and her other phones subscribe
        // again from Settings. The log says it was renewed, never the topic.
        let renewed = AwayChoice.newPushTopic()
        try transaction.db.cachedExecute(sql: "UPDATE away_choices SET pushTopic = ? WHERE personId = ? AND pushTopic IS NOT NULL",
                                         arguments: [renewed, personId])
        if transaction.db.changesCount > 0 {
            try transaction.record(entity: .awayChoice, entityId: personId, op: .update,
                                   payload: ["personId": .string(personId), "pushTopicRenewed": .bool(true)])
        }
    }

    static func device(from row: Row) throws -> Device {
        guard let id = UUID(text: row["id"]), let personId = UUID(text: row["personId"]) else {
            throw DatabaseError(message: "devices row \(row["id"] as String) is damaged")
        }
        return Device(
            id: id, personId: personId, name: row["name"],
            createdAt: Date(millisecondsSince1970: row["createdAt"]),
            lastSeenAt: (row["lastSeenAt"] as Int64?).map(Date.init(millisecondsSince1970:)),
            userAgent: row["userAgent"],
            revokedAt: (row["revokedAt"] as Int64?).map(Date.init(millisecondsSince1970:)),
            pairedBy: row.hasColumn("pairedBy") ? (row["pairedBy"] as String?).flatMap(UUID.init(text:)) : nil,
            awaitingApproval: row["awaitingApproval"] ?? false
        )
    }
}
