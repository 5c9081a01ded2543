import Foundation
@testable import HearthApp
import HearthAlerts
import HearthTestSupport
import Testing

@Suite struct HubConfigurationTests {
    /// Writes a YAML file to a fresh path in `directory`.
    static func yaml(_ text: String, in directory: borrowing TemporaryDirectory) throws -> String {
        let path = directory.path("hearth-\(UUID().uuidString).yaml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func defaultsApplyWhenNothingIsSet() async throws {
        let directory = try TemporaryDirectory()
        let file = try Self.yaml("# nothing but a comment\n", in: directory)
        let configuration = try await HubConfiguration.load(flags: .init(configFile: file), environment: [:])
        expectEqual(configuration.host, "0.0.0.0")
        expectEqual(configuration.port, 8080)
        expectEqual(configuration.dataDirectory, ".hearth")
        #expect(configuration.webRoot == nil)
        expectEqual(configuration.householdName, "Home")
        expectEqual(configuration.logLevel, "info")
        #expect(configuration.discoveryEnabled, "a hub announces itself unless told not to")
        #expect(configuration.notek == .init(enabled: false, host: "0.0.0.0", port: 9001),
                "Notek has no passwords, so its listener is off unless the household turns it on")
    }

    @Test func theNotekListenerIsTurnedOnInTheFileOrTheEnvironment() async throws {
        let directory = try TemporaryDirectory()
        let file = try Self.yaml("notek:\n  enabled: true\n  port: 9100\n", in: directory)
        let fromFile = try await HubConfiguration.load(flags: .init(configFile: file), environment: [:])
        expectEqual(fromFile.notek, .init(enabled: true, host: "0.0.0.0", port: 9100))
        let plain = try Self.yaml("", in: directory)
        let fromEnvironment = try await HubConfiguration.load(flags: .init(configFile: plain), environment: [
            "HEARTH_NOTEK_ENABLED": "true", "HEARTH_NOTEK_HOST": "127.0.0.1", "HEARTH_NOTEK_PORT": "9002",
        ])
        expectEqual(fromEnvironment.notek, .init(enabled: true, host: "127.0.0.1", port: 9002))
        // Unset, it listens where the HTTP server does, not on every address
        let boundHub = try await HubConfiguration.load(flags: .init(configFile: plain, host: "192.168.1.5"), environment: [
            "HEARTH_NOTEK_ENABLED": "true",
        ])
        expectEqual(boundHub.notek, .init(enabled: true, host: "192.168.1.5", port: 9001))
    }

    @Test func syncSkewAndRetentionAreSetInTheFileOrTheEnvironmentAndChecked() async throws {
        let directory = try TemporaryDirectory()
        let plain = try Self.yaml("", in: directory)
        let defaults = try await HubConfiguration.load(flags: .init(configFile: plain), environment: [:])
        #expect(defaults.syncMaximumSkewSeconds == 300 && defaults.syncRetentionDays == 90)
        let file = try Self.yaml("sync:\n  maximumSkewSeconds: 60\n  retentionDays: 30\n", in: directory)
        let fromFile = try await HubConfiguration.load(flags: .init(configFile: file), environment: [:])
        #expect(fromFile.syncMaximumSkewSeconds == 60 && fromFile.syncRetentionDays == 30)
        let fromEnvironment = try await HubConfiguration.load(flags: .init(configFile: plain), environment: [
            "HEARTH_SYNC_MAXIMUM_SKEW_SECONDS": "120", "HEARTH_SYNC_RETENTION_DAYS": "365",
        ])
        #expect(fromEnvironment.syncMaximumSkewSeconds == 120 && fromEnvironment.syncRetentionDays == 365)
        for (key, value) in [("HEARTH_SYNC_MAXIMUM_SKEW_SECONDS", "0"), ("HEARTH_SYNC_RETENTION_DAYS", "-1"), ("HEARTH_SYNC_RETENTION_DAYS", "soon")] {
            await #expect(throws: ConfigurationProblem.self, "\(key)=\(value)") {
                _ = try await HubConfiguration.load(flags: .init(configFile: plain), environment: [key: value])
            }
        }
    }

    @Test func textsAreOffUntilTurnedOnAndTheModemsDaemonAndLimitAreSet() async throws {
        let directory = try TemporaryDirectory()
        let plain = try Self.yaml("", in: directory)
        #expect(try await HubConfiguration.load(flags: .init(configFile: plain), environment: [:]).sms
            == SMSSettings(enabled: false, smsdConfig: "/etc/gammu-smsdrc", monthlyLimit: 100))
        let file = try Self.yaml("sms:\n  enabled: true\n  smsdConfig: /etc/hearth/smsdrc\n  monthlyLimit: 40\n", in: directory)
        let set = try await HubConfiguration.load(flags: .init(configFile: file), environment: [:]).sms
        expectEqual(set, SMSSettings(enabled: true, smsdConfig: "/etc/hearth/smsdrc", monthlyLimit: 40))
        expectEqual(set.warningAt, 32, "admins are warned at four fifths")
        let fromEnvironment = try await HubConfiguration.load(flags: .init(configFile: plain), environment: ["HEARTH_SMS_ENABLED": "true"])
        #expect(fromEnvironment.sms.enabled)
    }

    @Test func pushIsOffUntilTurnedOnAndSaysOnlyTheKindUnlessTheHouseholdChoosesMore() async throws {
        let directory = try TemporaryDirectory()
        let plain = try Self.yaml("", in: directory)
        #expect(try await HubConfiguration.load(flags: .init(configFile: plain), environment: [:]).push
            == PushSettings(enabled: false, server: "https://ntfy.sh", content: .kindOnly))
        let file = try Self.yaml("push:\n  enabled: true\n  server: https://ntfy.example.org/\n  content: full\n", in: directory)
        #expect(try await HubConfiguration.load(flags: .init(configFile: file), environment: [:]).push
            == PushSettings(enabled: true, server: "https://ntfy.example.org", content: .full))
    }

    @Test func discoveryCanBeTurnedOffInTheFileOrTheEnvironment() async throws {
        let directory = try TemporaryDirectory()
        let file = try Self.yaml("discovery:\n  enabled: false\n", in: directory)
        try await expectEqual(HubConfiguration.load(flags: .init(configFile: file), environment: [:]).discoveryEnabled, false)
        let plain = try Self.yaml("", in: directory)
        let off = try await HubConfiguration.load(flags: .init(configFile: plain), environment: ["HEARTH_DISCOVERY_ENABLED": "false"])
        expectEqual(off.discoveryEnabled, false)
    }

    @Test func fileThenEnvironmentThenFlagsEachWin() async throws {
        let directory = try TemporaryDirectory()
        let file = try Self.yaml("""
            http:
              host: 127.0.0.1
              port: 7000
            household:
              name: Nowak family
              timeZone: Europe/Warsaw
            log:
              level: debug
            """, in: directory)
        let fromFile = try await HubConfiguration.load(flags: .init(configFile: file), environment: [:])
        expectEqual(fromFile.port, 7000)
        expectEqual(fromFile.householdName, "Nowak family")
        expectEqual(fromFile.householdTimeZone, "Europe/Warsaw")
        expectEqual(fromFile.logLevel, "debug")

        let environment = ["HEARTH_HTTP_PORT": "7100", "HEARTH_HOUSEHOLD_TIME_ZONE": "America/New_York"]
        let fromEnvironment = try await HubConfiguration.load(flags: .init(configFile: file), environment: environment)
        expectEqual(fromEnvironment.port, 7100)
        expectEqual(fromEnvironment.householdTimeZone, "America/New_York")
        expectEqual(fromEnvironment.host, "127.0.0.1", "untouched keys still come from the file")

        let fromFlags = try await HubConfiguration.load(flags: .init(configFile: file, port: 7200, host: "::1"), environment: environment)
        expectEqual(fromFlags.port, 7200)
        expectEqual(fromFlags.host, "::1")
    }

    @Test(arguments: [
        ("http:\n  prot: 80\n", [String: String](), HubConfiguration.Flags(), "http.prot", "is not a setting"),
        ("", ["HEARTH_HTTP_PORT": "eighty"], .init(), "http.port", "must be a whole number"),
        ("", ["HEARTH_HTTPPORT": "80"], .init(), "HEARTH_HTTPPORT", "is not a setting"),
        ("http:\n  port: 70000\n", [:], .init(), "http.port", "must be from 1 to 65535"),
        ("", [:], .init(port: -1), "http.port", "(from --port)"),
        ("household:\n  timeZone: Mars/Base\n", [:], .init(), "household.timeZone", "IANA time zone"),
        ("household:\n  name: \"  \"\n", [:], .init(), "household.name", "characters of text"),
        ("log:\n  level: loud\n", [:], .init(), "log.level", "must be one of"),
        ("", ["HEARTH_DISCOVERY_ENABLED": "maybe"], .init(), "discovery.enabled", "must be true or false"),
        ("", ["HEARTH_NOTEK_ENABLED": "yes please"], .init(), "notek.enabled", "must be true or false"),
        ("notek:\n  port: 90001\n", [:], .init(), "notek.port", "must be from 1 to 65535"),
        ("notek:\n  enabled: true\n  port: 8080\n", [:], .init(), "notek.port", "must differ from http.port"),
        ("- just\n- a list\n", [:], .init(), "--config", "must be a mapping"),
        ("http: [unclosed\n", [:], .init(), "--config", "is not valid YAML"),
        ("", [:], .init(webRoot: "/no/such/directory"), "web.root", "existing directory"),
        ("sms:\n  enabled: sometimes\n", [:], .init(), "sms.enabled", "must be true or false"),
        ("sms:\n  smsdConfig: gammu-smsdrc\n", [:], .init(), "sms.smsdConfig", "absolute path"),
        ("", ["HEARTH_SMS_MONTHLY_LIMIT": "0"], .init(), "sms.monthlyLimit", "must be from 1 to 10000 texts"),
        ("push:\n  server: ftp://ntfy.sh\n", [:], .init(), "push.server", "http(s) address"),
        ("", ["HEARTH_PUSH_SERVER": "https://ntfy.sh/?token=1"], .init(), "push.server", "http(s) address"),
        ("push:\n  content: everything\n", [:], .init(), "push.content", "kind-only or full"),
    ])
    func mistakesStopStartUpNamingTheKey(file: String, environment: [String: String], flags: HubConfiguration.Flags, key: String, message: String) async throws {
        var flags = flags
        let directory = try TemporaryDirectory()
        flags.configFile = try Self.yaml(file, in: directory)
        do {
            _ = try await HubConfiguration.load(flags: flags, environment: environment)
            Issue.record("expected a configuration problem for \(key)")
        } catch let problem as ConfigurationProblem {
            expectEqual(problem.key, key)
            #expect(problem.description.contains(message), "\(problem)")
            #expect(!problem.description.contains("\n"))
        }
    }

    @Test func aMissingConfigFileNamedOnTheCommandLineIsAnError() async throws {
        await #expect(throws: ConfigurationProblem.self) {
            _ = try await HubConfiguration.load(flags: .init(configFile: "/no/such/hearth.yaml"), environment: [:])
        }
    }

    @Test func environmentNamesFollowTheKeys() {
        expectEqual(HubConfiguration.Key.householdTimeZone.environmentName, "HEARTH_HOUSEHOLD_TIME_ZONE")
        expectEqual(HubConfiguration.Key.port.environmentName, "HEARTH_HTTP_PORT")
    }
}
