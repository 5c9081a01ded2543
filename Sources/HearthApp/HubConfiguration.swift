import Configuration
import Foundation
import HearthAlerts
import HearthCore
import SystemPackage
import Yams

/// Everything `hearth serve` needs to start, read from (lowest first) built-in
/// defaults, the YAML file, `HEARTH_*` environment variables and flags.
public struct HubConfiguration: Sendable, Equatable {
    public var host: String
    public var port: Int
    public var dataDirectory: String
    public var webRoot: String?
    public var householdName: String
    public var householdTimeZone: String
    public var logLevel: String
    /// Announce the hub on the LAN by mDNS (through avahi-daemon).
    public var discoveryEnabled: Bool
    /// Outgoing webhooks by alert kind (`webhooks.sos`, `webhooks.doseMissed`…);
    /// empty unless the household set one, and then nothing leaves the hub.
    public var webhooks: [CareAlert.Kind: WebhookTarget] = [:]
    /// The Notek listener for existing Notek note clients; off by default,
    /// because that protocol has no authentication.
    public var notek = NotekSettings()
    /// How far ahead of the hub a syncing device's clock may read, in seconds.
    public var syncMaximumSkewSeconds = 300
    /// Days of change log kept in full; older entries are folded into the
    /// latest of each entity, and a device that was away longer resyncs.
    public var syncRetentionDays = 90
    /// The hub's voice (`speech.*`): off unless turned on.
    public var speech = SpeechSettings()
    /// Texts through a modem, by gammu-smsd (`sms.*`): off unless turned on.
    public var sms = SMSSettings()
    /// Push through an Internet ntfy server (`push.*`): off unless turned on.
    public var push = PushSettings()
    /// `pairing.seniorInvitesNeedApproval`: a device paired with a code a
    /// senior's tablet made does nothing until an admin approves it; on
    /// unless a household turns it off (the tablet is on the wall for
    /// anyone in the house to use).
    public var seniorInvitesNeedApproval = true

    public struct NotekSettings: Sendable, Equatable {
        public var enabled = false
        /// Where the Notek listener listens; `notek.host`, else `http.host`.
        public var host = "0.0.0.0"
        public var port = 9001

        public init(enabled: Bool = false, host: String = "0.0.0.0", port: Int = 9001) {
            self.enabled = enabled
            self.host = host
            self.port = port
        }
    }

    /// The YAML file read when `--config` is not given; it may be absent.
    public static let systemFile = "/etc/hearth/hearth.yaml"

    /// Every key the hub understands, in YAML's dotted form. A key outside
    /// this list is a typo that would otherwise be silently ignored.
    public enum Key: String, CaseIterable, Sendable {
        case host = "http.host"
        case port = "http.port"
        case dataDirectory = "data.directory"
        case webRoot = "web.root"
        case householdName = "household.name"
        case householdTimeZone = "household.timeZone"
        case logLevel = "log.level"
        case discoveryEnabled = "discovery.enabled"
        case webhookSOS = "webhooks.sos"
        case webhookDoseDue = "webhooks.doseDue"
        case webhookDoseMissed = "webhooks.doseMissed"
        case webhookLowStock = "webhooks.lowStock"
        case webhookClock = "webhooks.clock"
        case notekEnabled = "notek.enabled"
        case notekHost = "notek.host"
        case notekPort = "notek.port"
        case syncMaximumSkew = "sync.maximumSkewSeconds"
        case syncRetention = "sync.retentionDays"
        case speechEnabled = "speech.enabled"
        case speechVoice = "speech.voice"
        case speechQuietHours = "speech.quietHours"
        case speechDevice = "speech.device"
        case seniorInvitesNeedApproval = "pairing.seniorInvitesNeedApproval"
        case smsEnabled = "sms.enabled"
        case smsdConfig = "sms.smsdConfig"
        case smsMonthlyLimit = "sms.monthlyLimit"
        case pushEnabled = "push.enabled"
        case pushServer = "push.server"
        case pushContent = "push.content"

        /// The alert kind a webhook key is for.
        var alertKind: CareAlert.Kind? {
            switch self {
            case .webhookSOS: .sos
            case .webhookDoseDue: .doseDue
            case .webhookDoseMissed: .doseMissed
            case .webhookLowStock: .lowStock
            case .webhookClock: .clock
            default: nil
            }
        }

        /// The environment variable that sets this key, e.g. `HEARTH_HTTP_PORT`.
        public var environmentName: String {
            "HEARTH_" + rawValue.split(separator: ".").map { component in
                component.reduce(into: "") { name, character in
                    if character.isUppercase { name += "_" }
                    name += character.uppercased()
                }
            }.joined(separator: "_")
        }
    }

    static let logLevels = ["trace", "debug", "info", "notice", "warning", "error", "critical"]

    /// Flags given on the command line; nil means "not given".
    public struct Flags: Sendable {
        public var configFile: String?
        public var dataDirectory: String?
        public var port: Int?
        public var host: String?
        public var webRoot: String?

        public init(configFile: String? = nil, dataDirectory: String? = nil, port: Int? = nil, host: String? = nil, webRoot: String? = nil) {
            self.configFile = configFile
            self.dataDirectory = dataDirectory
            self.port = port
            self.host = host
            self.webRoot = webRoot
        }
    }

    /// Reads and checks the configuration. Throws `ConfigurationProblem`, whose
    /// description is one line naming the key, where it came from and what is wrong.
    public static func load(
        flags: Flags,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) async throws -> HubConfiguration {
        let filePath = flags.configFile ?? environment["HEARTH_CONFIG"] ?? systemFile
        let fileIsOptional = flags.configFile == nil && environment["HEARTH_CONFIG"] == nil
        let fileKeys = try yamlKeys(at: filePath, optional: fileIsOptional)

        let known = Set(Key.allCases.map(\.rawValue))
        if let unknown = fileKeys.keys.sorted().first(where: { !known.contains($0) }) {
            throw ConfigurationProblem(key: unknown, source: filePath, message: "is not a setting Hearth knows")
        }
        let knownNames = Set(Key.allCases.map(\.environmentName) + ["HEARTH_CONFIG"])
        if let unknown = environment.keys.sorted().first(where: { $0.hasPrefix("HEARTH_") && !knownNames.contains($0) }) {
            throw ConfigurationProblem(key: unknown, source: "the environment", message: "is not a setting Hearth knows")
        }

        func absolute(_ key: Key) -> AbsoluteConfigKey { AbsoluteConfigKey(key.rawValue.split(separator: ".").map(String.init)) }
        var flagValues: [AbsoluteConfigKey: ConfigValue] = [:]
        if let value = flags.host { flagValues[absolute(.host)] = .init(.string(value), isSecret: false) }
        if let value = flags.port { flagValues[absolute(.port)] = .init(.int(value), isSecret: false) }
        if let value = flags.dataDirectory { flagValues[absolute(.dataDirectory)] = .init(.string(value), isSecret: false) }
        if let value = flags.webRoot { flagValues[absolute(.webRoot)] = .init(.string(value), isSecret: false) }
        let defaults: [AbsoluteConfigKey: ConfigValue] = [
            absolute(.host): .init(.string("0.0.0.0"), isSecret: false),
            absolute(.port): .init(.int(8080), isSecret: false),
            absolute(.dataDirectory): .init(.string(".hearth"), isSecret: false),
            absolute(.householdName): .init(.string("Home"), isSecret: false),
            absolute(.householdTimeZone): .init(.string(TimeZone.current.identifier), isSecret: false),
            absolute(.logLevel): .init(.string("info"), isSecret: false),
            absolute(.discoveryEnabled): .init(.bool(true), isSecret: false),
            absolute(.notekEnabled): .init(.bool(false), isSecret: false),
            absolute(.notekPort): .init(.int(9001), isSecret: false),
            absolute(.syncMaximumSkew): .init(.int(300), isSecret: false),
            absolute(.syncRetention): .init(.int(90), isSecret: false),
            absolute(.speechEnabled): .init(.bool(false), isSecret: false),
            absolute(.speechDevice): .init(.string("default"), isSecret: false),
            absolute(.seniorInvitesNeedApproval): .init(.bool(true), isSecret: false),
            absolute(.smsEnabled): .init(.bool(false), isSecret: false),
            absolute(.smsdConfig): .init(.string(SMSSettings.defaultConfig), isSecret: false),
            absolute(.smsMonthlyLimit): .init(.int(100), isSecret: false),
            absolute(.pushEnabled): .init(.bool(false), isSecret: false),
            absolute(.pushServer): .init(.string(PushSettings.defaultServer), isSecret: false),
            absolute(.pushContent): .init(.string(PushSettings.Content.kindOnly.rawValue), isSecret: false),
        ]

        var providers: [any ConfigProvider] = [
            InMemoryProvider(name: "flags", values: flagValues),
            EnvironmentVariablesProvider(environmentVariables: environment).prefixKeys(with: ["hearth"]),
        ]
        // An empty or all-comment file holds no settings (and the YAML
        // provider refuses a document that is not a mapping).
        if !fileKeys.isEmpty {
            providers.append(try await FileProvider<YAMLSnapshot>(filePath: FilePath(filePath), allowMissing: fileIsOptional))
        }
        providers.append(InMemoryProvider(name: "defaults", values: defaults))
        let values = Values(reader: ConfigReader(providers: providers), flags: flags, environment: environment,
                            filePath: filePath, fileKeys: fileKeys)
        let host = try values.address(.host)
        let port = try values.port(.port)
        var configuration = HubConfiguration(
            host: host, port: port, dataDirectory: try values.dataDirectory(), webRoot: try values.webRoot(),
            householdName: try values.householdName(), householdTimeZone: try values.householdTimeZone(),
            logLevel: try values.logLevel(), discoveryEnabled: try values.bool(.discoveryEnabled)
        )
        configuration.webhooks = try values.webhooks()
        configuration.notek = try values.notek(httpHost: host, httpPort: port)
        configuration.syncMaximumSkewSeconds = try values.int(.syncMaximumSkew, in: 1...86_400, unit: "seconds")
        configuration.syncRetentionDays = try values.int(.syncRetention, in: 1...3650, unit: "days")
        configuration.speech = try values.speech()
        configuration.seniorInvitesNeedApproval = try values.bool(.seniorInvitesNeedApproval)
        configuration.sms = try values.sms()
        configuration.push = try values.push()
        return configuration
    }

    /// The dotted leaf keys of a YAML file and their text, or nothing when an
    /// optional file is absent.
    static func yamlKeys(at path: String, optional: Bool) throws -> [String: String] {
        guard FileManager.default.fileExists(atPath: path) else {
            if optional { return [:] }
            throw ConfigurationProblem(key: "--config", source: path, message: "file does not exist")
        }
        guard let text = FileManager.default.contents(atPath: path).flatMap({ String(data: $0, encoding: .utf8) }) else {
            throw ConfigurationProblem(key: "--config", source: path, message: "file cannot be read as UTF-8 text")
        }
        let document: Any?
        do {
            document = try Yams.load(yaml: text)
        } catch {
            throw ConfigurationProblem(key: "--config", source: path, message: "is not valid YAML (\(String(describing: error).split(separator: "\n").first ?? ""))")
        }
        guard let document else { return [:] }  // an empty or all-comment file
        guard let mapping = document as? [AnyHashable: Any] else {
            throw ConfigurationProblem(key: "--config", source: path, message: "must be a mapping of settings")
        }
        var keys: [String: String] = [:]
        func walk(_ value: Any, prefix: String) {
            if let mapping = value as? [AnyHashable: Any] {
                for (key, child) in mapping {
                    let name = "\(key.base)"
                    walk(child, prefix: prefix.isEmpty ? name : prefix + "." + name)
                }
            } else {
                keys[prefix] = "\(value)"
            }
        }
        walk(mapping, prefix: "")
        return keys
    }
}

/// A configuration mistake, told in one line: which key, from where, and what is wrong.
public struct ConfigurationProblem: Error, CustomStringConvertible, Equatable {
    public let key: String
    public let source: String
    public let message: String

    public var description: String { "configuration: \(key) (from \(source)) \(message)" }
}
