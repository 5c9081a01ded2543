import Foundation
import GRDB
import HearthCore

/// The hub's clock next to a device's, as `POST /api/v1/clock` reports it.
public struct ClockReading: Sendable, Hashable {
    public var hubTime: Date
    public var deviceTime: Date
    /// Device minus hub, in seconds.
    public var difference: TimeInterval
    public var looksWrong: Bool
}

extension HearthStore {
    /// How far a device's clock may differ before the hub's is doubted.
    public static let clockTolerance: TimeInterval = 120

    /// The time of the last change the hub stored: its time can only have
    /// gone forward since, unless the clock is wrong.
    static func lastStoredTime(_ db: Database) throws -> Date? {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT time FROM changes ORDER BY seq DESC LIMIT 1")).map(Date.init(millisecondsSince1970:))
    }

    /// Compares a paired device's clock (sent by the web UI) with the hub's;
    /// more than two minutes apart raises a "clock looks wrong" alert for
    /// admins and caregivers (once, until it is corrected or acknowledged).
    public func compareClock(deviceTime: Date, by origin: String) async throws -> ClockReading {
        let hubTime = currentTime()
        let difference = deviceTime.timeIntervalSince(hubTime)
        let reading = ClockReading(hubTime: hubTime, deviceTime: deviceTime, difference: difference,
                                   looksWrong: abs(difference) > Self.clockTolerance)
        guard reading.looksWrong else { return reading }
        try await write(by: origin) { transaction in
            try Self.raiseClockAlert(reason: "device-differs", details: [
                "hubTime": .of(hubTime), "deviceTime": .of(deviceTime), "differenceSeconds": .number(difference.rounded()),
            ], in: &transaction)
        }
        return reading
    }

    /// How far from its last record the hub's time may be moved without an
    /// admin confirming it: a Pi left off over a weekend, not a month.
    public static let clockCorrectionLimit: TimeInterval = 48 * 3600

    /// "Use this phone's time": from now on the hub schedules by `deviceTime`,
    /// without needing the privilege to set the system clock.
    ///
    /// Every dose, reminder, code's expiry and Trash's purge moves with it,
    /// so (`PermissionPolicy`'s `hubClock`; the admin at the hub's console is `Actor.hubTerminal`):
    /// - an admin may set it; more than 48 h from the hub's last record
    ///   only when `confirmed`;
    /// - a caregiver who looks after someone may set it once after the hub
    ///   starts (a Pi boots with no real-time clock), within 48 h of its
    ///   last record;
    /// - nobody else.
    /// Setting it back burns every open pairing code (an expired one must
    /// not come back); either way, Trash and the log wait a day
    /// (ClockSteadiness).
    public func correctClock(
        to deviceTime: Date, by origin: String, corrector: PermissionPolicy.Actor, confirmed: Bool = false
    ) async throws -> ClockReading {
        // Whom the policy lets set it at all (once, near); whether this time is near is read below.
        guard PermissionPolicy.decide(corrector, .edit, .hubClock(setSinceStart: false, withinLimit: true)) == .allow else {
            throw HearthError.forbidden("Only an admin, or a caregiver who looks after someone, can set the hub's time")
        }
        let before = currentTime()
        let offset = clockOffset.withLock { $0 } + deviceTime.millisecondsSince1970 - before.millisecondsSince1970
        guard abs(Double(offset) / 1000) < 100 * 365 * 86_400 else {
            throw HearthError.invalid(fields: ["deviceTime": "is more than a century from the hub's clock"])
        }
        let firstSinceStart = !clockCorrectedSinceStart.withLock { $0 }
        let previous = clockOffset.withLock { $0 }
        do {
            try await write(by: origin) { transaction in
                guard let household = try Self.household(transaction.db) else { throw HearthError.notFound(what: "The household") }
                let lastRecord = try Self.lastStoredTime(transaction.db) ?? before
                let far = abs(deviceTime.timeIntervalSince(lastRecord)) > Self.clockCorrectionLimit
                let days = (abs(deviceTime.timeIntervalSince(lastRecord)) / 86_400 * 10).rounded() / 10
                if PermissionPolicy.decide(corrector, .edit, .hubClock(setSinceStart: !firstSinceStart, withinLimit: !far)) != .allow {
                    throw HearthError.forbidden(far
                        ? "That time is \(days) days from the hub's last record; only an admin can move the hub's time that far"
                        : "The hub's time was already set since it started; only an admin can set it again")
                }
                if far, !confirmed {
                    throw HearthError.conflict("That time is \(days) days from the hub's last record, which would move every dose, "
                        + "reminder and Trash's 30 days with it; send it again with confirm: true if it is right")
                }
                if deviceTime < before.addingTimeInterval(-ClockSteadiness.tolerance) {
                    try transaction.db.cachedExecute(sql: "UPDATE pairing_codes SET burnedAt = ? WHERE usedAt IS NULL AND burnedAt IS NULL",
                                                     arguments: [transaction.time.millisecondsSince1970])
                }
                try transaction.db.cachedExecute(sql: "UPDATE household SET clockOffsetMs = ?", arguments: [offset])
                try transaction.record(entity: .household, entityId: household.id.text, op: .update,
                                       payload: ["clockOffsetMs": .number(Double(offset))])
                for var alert in try Self.alerts(sql: "SELECT * FROM alerts WHERE kind = 'clock' AND resolvedAt IS NULL AND acknowledgedAt IS NULL",
                                                 arguments: [], transaction.db) {
                    alert.resolvedAt = deviceTime
                    try Self.saveAlert(alert, in: &transaction)
                }
                // Before COMMIT publishes the change: whoever it wakes (the
                // reminder service, a page asking the hub's time) reads the new time.
                self.clockOffset.withLock { $0 = offset }
            }
        } catch {
            // A write that failed leaves the clock as it was.
            clockOffset.withLock { $0 = previous }
            throw error
        }
        let moved = abs(Double(offset - previous) / 1000)
        clockCorrectedSinceStart.withLock { $0 = true }
        if moved > ClockSteadiness.tolerance { steadiness.jumped() }
        let now = currentTime()
        return ClockReading(hubTime: now, deviceTime: deviceTime, difference: deviceTime.timeIntervalSince(now), looksWrong: false)
    }

    /// Whether the hub's time stayed put for a day: Trash is emptied and the
    /// log folded only then (ClockSteadiness).
    public var clockIsSettled: Bool { steadiness.isSettled(wall: now()) }

    /// Raises the clock alert unless one is already open.
    static func raiseClockAlert(reason: String, details: [String: JSONValue], in transaction: inout WriteTransaction) throws {
        let open = try Int.fetchOne(transaction.db.cachedStatement(sql: """
            SELECT 1 FROM alerts WHERE kind = 'clock' AND resolvedAt IS NULL AND acknowledgedAt IS NULL
            """))
        guard open == nil else { return }
        var fields = details
        fields["reason"] = .string(reason)
        let alert = CareAlert(kind: .clock, audience: .keepers, personId: nil, raisedBy: transaction.origin,
                              raisedAt: transaction.time, details: .object(fields))
        try insertAlert(alert, onceKey: nil, in: &transaction)
    }
}
