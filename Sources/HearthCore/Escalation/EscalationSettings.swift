import Foundation

/// How the hub reaches people who are not at home; per household.
public struct EscalationSettings: Hashable, Sendable, Codable {
    /// Minutes a missed dose waits for an answer at home before the
    /// caregivers who chose it are texted (or pushed) away from home.
    public var missedDoseAwayAfterMinutes: Int
    /// Minutes an SOS waits for anyone's answer before the household's
    /// emergency contacts (a neighbour) are texted.
    public var contactsAfterMinutes: Int

    public init(missedDoseAwayAfterMinutes: Int = 15, contactsAfterMinutes: Int = 10) {
        self.missedDoseAwayAfterMinutes = missedDoseAwayAfterMinutes
        self.contactsAfterMinutes = contactsAfterMinutes
    }

    public func validated() throws(HearthError) -> EscalationSettings {
        var problems: [String: String] = [:]
        if !(0...720).contains(missedDoseAwayAfterMinutes) { problems["missedDoseAwayAfterMinutes"] = "must be 0 to 720 minutes" }
        if !(1...120).contains(contactsAfterMinutes) { problems["contactsAfterMinutes"] = "must be 1 to 120 minutes" }
        if !problems.isEmpty { throw .invalid(fields: problems) }
        return self
    }

    var missedDoseAway: TimeInterval { TimeInterval(missedDoseAwayAfterMinutes * 60) }
    var contactsAfter: TimeInterval { TimeInterval(contactsAfterMinutes * 60) }
}

/// A person's own choice of how she is told when she is not at home.
public struct AwayChoice: Hashable, Sendable, Codable {
    /// "Text me when I'm away" (needs her phone number and the hub's modem).
    public var sms: Bool
    /// Push through the Internet ntfy server (needs the hub to have Internet).
    public var push: Bool

    public init(sms: Bool = false, push: Bool = false) {
        self.sms = sms
        self.push = push
    }

    /// A new secret topic on the Internet push server: 128 random bits, in
    /// the letters ntfy allows in a topic. Whoever knows it reads her alerts
    /// there, so it is never logged nor sent to anyone but her and admins.
    public static func newPushTopic() -> String {
        var generator = SystemRandomNumberGenerator()
        return "hearth-" + RandomText.base64URL((0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }
}
