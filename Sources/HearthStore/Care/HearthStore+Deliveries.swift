import Foundation
import GRDB
import HearthCore

/// One time an alert reached someone: an alert app's stream wrote it, the
/// hub said it, an open page was sent it.
public struct AlertDelivery: Sendable, Hashable {
    /// `alert-app`, `voice`, `page`.
    public var channel: String
    /// Who: `alert-app:<id>`, `device:<id>`, `speaker`.
    public var recipient: String
    public var at: Date

    public init(channel: String, recipient: String, at: Date) {
        self.channel = channel
        self.recipient = recipient
        self.at = at
    }
}

extension HearthStore {
    /// How long deliveries are kept: as long as the alert history's usual reading.
    public static let deliveriesKept: TimeInterval = 90 * 86_400

    /// Keeps deliveries, many at a time (the hub gathers them for a second
    /// first), outside the change log: where an alert went is its history,
    /// not news for any device. Older ones than `deliveriesKept` go.
    public func recordDeliveries(_ deliveries: [(alertId: UUID, delivery: AlertDelivery)]) async throws {
        guard !deliveries.isEmpty else { return }
        let horizon = currentTime().addingTimeInterval(-Self.deliveriesKept).millisecondsSince1970
        try await writeOutsideChangeLog { db in
            for (alertId, delivery) in deliveries {
                try db.cachedExecute(sql: "INSERT INTO alert_deliveries (alertId, channel, recipient, at) VALUES (?, ?, ?, ?)",
                                     arguments: [alertId.text, delivery.channel, delivery.recipient, delivery.at.millisecondsSince1970])
            }
            try db.cachedExecute(sql: "DELETE FROM alert_deliveries WHERE at < ?", arguments: [horizon])
        }
    }

    /// Where an alert went, oldest first, each recipient named as the
    /// household knows it ("Anna's phone", "Tablet babci", the speaker).
    public func deliveries(ofAlert id: UUID) async throws -> [AlertDelivery] {
        try await pool.read { db in
            try Row.fetchAll(db.cachedStatement(sql: "SELECT channel, recipient, at FROM alert_deliveries WHERE alertId = ? ORDER BY at, rowid"),
                             arguments: [id.text]).map { row in
                AlertDelivery(channel: row["channel"], recipient: try Self.recipientName(row["recipient"], db) ?? row["recipient"],
                              at: Date(millisecondsSince1970: row["at"]))
            }
        }
    }

    /// A device's or an alert app's name for `device:<id>` / `alert-app:<id>`; nil for anything else.
    public func recipientName(_ recipient: String) async throws -> String? {
        try await pool.read { db in try Self.recipientName(recipient, db) }
    }

    static func recipientName(_ recipient: String, _ db: Database) throws -> String? {
        let parts = recipient.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return nil }
        switch parts[0] {
        case "device": return try String.fetchOne(db.cachedStatement(sql: "SELECT name FROM devices WHERE id = ?"), arguments: [parts[1]])
        case "alert-app": return try String.fetchOne(db.cachedStatement(sql: "SELECT name FROM alert_apps WHERE id = ?"), arguments: [parts[1]])
        // An answer by text: the hub's words for it, the page says whose.
        case "text": return try String.fetchOne(db.cachedStatement(sql: "SELECT 'text message' FROM away_messages WHERE id = ?"), arguments: [parts[1]])
        default: return nil
        }
    }
}
