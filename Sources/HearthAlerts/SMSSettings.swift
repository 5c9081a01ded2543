import Foundation

/// How the hub texts people away from home (`sms.*` in hearth.yaml): off
/// until a household plugs in a modem and sets gammu-smsd up for it.
public struct SMSSettings: Sendable, Equatable {
    public var enabled: Bool
    /// gammu-smsd's configuration file, read by `gammu-smsd-inject` too.
    public var smsdConfig: String
    /// Texts a month the household is willing to pay for; an SOS always goes.
    public var monthlyLimit: Int

    public static let defaultConfig = "/etc/gammu-smsdrc"

    public init(enabled: Bool = false, smsdConfig: String = SMSSettings.defaultConfig, monthlyLimit: Int = 100) {
        self.enabled = enabled
        self.smsdConfig = smsdConfig
        self.monthlyLimit = monthlyLimit
    }

    /// At four fifths of the limit the admins are warned, once a month.
    public var warningAt: Int { (monthlyLimit * 4 + 4) / 5 }
}
