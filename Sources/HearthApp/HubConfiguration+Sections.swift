import Configuration
import Foundation
import HearthAlerts
import HearthCore

/// The configuration read section by section, each checked as it is read.
extension HubConfiguration.Values {
    typealias Key = HubConfiguration.Key

    /// `web.root`: an existing directory to serve the web UI from, or nil for the built-in one.
    func webRoot() throws -> String? {
        guard let webRoot = optionalString(.webRoot) else { return nil }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: webRoot, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw problem(.webRoot, "must be an existing directory, not \(webRoot)")
        }
        return webRoot
    }

    func dataDirectory() throws -> String {
        let dataDirectory = try string(.dataDirectory)
        guard !dataDirectory.isEmpty else { throw problem(.dataDirectory, "must not be empty") }
        return dataDirectory
    }

    func householdName() throws -> String {
        let name = try string(.householdName)
        do {
            _ = try Household.validatedName(name)
        } catch {
            throw problem(.householdName, "must be 1 to \(Household.maximumNameLength) characters of text")
        }
        return name
    }

    func householdTimeZone() throws -> String {
        let timeZone = try string(.householdTimeZone)
        guard TimeZone(identifier: timeZone) != nil else {
            throw problem(.householdTimeZone, "must be an IANA time zone such as Europe/Warsaw, not \(timeZone)")
        }
        return timeZone
    }

    func logLevel() throws -> String {
        let logLevel = try string(.logLevel)
        guard HubConfiguration.logLevels.contains(logLevel) else {
            throw problem(.logLevel, "must be one of \(HubConfiguration.logLevels.joined(separator: ", ")), not \(logLevel)")
        }
        return logLevel
    }

    /// `webhooks.<kind>`: where each kind of alert is posted, if anywhere.
    func webhooks() throws -> [CareAlert.Kind: WebhookTarget] {
        var webhooks: [CareAlert.Kind: WebhookTarget] = [:]
        for key in Key.allCases {
            guard let kind = key.alertKind, let address = optionalString(key), !address.isEmpty else { continue }
            do {
                webhooks[kind] = try WebhookTarget(address)
            } catch {
                throw problem(key, error.description)
            }
        }
        return webhooks
    }

    /// `notek.*`, beside the HTTP server listening on `httpHost:httpPort`.
    func notek(httpHost: String, httpPort: Int) throws -> HubConfiguration.NotekSettings {
        let enabled = try bool(.notekEnabled)
        // Unset, the Notek listener listens where the HTTP server does: a hub
        // bound to one address does not open another port on every one.
        let host = try address(.notekHost, fallback: httpHost)
        let port = try port(.notekPort)
        if enabled, port != 0, port == httpPort, host == httpHost || host == "0.0.0.0" || httpHost == "0.0.0.0" {
            throw problem(.notekPort, "must differ from http.port (\(httpPort))")
        }
        return HubConfiguration.NotekSettings(enabled: enabled, host: host, port: port)
    }

    /// `speech.*`: whether and how the hub speaks alerts aloud.
    func speech() throws -> SpeechSettings {
        let voice = optionalString(.speechVoice).flatMap { $0.isEmpty ? nil : $0 }
        if let voice, !SpeechSettings.isVoiceName(voice) {
            throw problem(.speechVoice, "must be an espeak-ng voice name such as pl, en-gb or pl+f3, not \(voice)")
        }
        var quietHours: QuietHours?
        if let text = optionalString(.speechQuietHours), !text.isEmpty {
            guard let hours = QuietHours(text) else {
                throw problem(.speechQuietHours, "must be two times such as 22:00-07:00, not \(text)")
            }
            quietHours = hours
        }
        let device = try string(.speechDevice)
        guard !device.isEmpty, device.count <= 100, !device.hasPrefix("-"), device.allSatisfy({ !$0.isWhitespace }) else {
            throw problem(.speechDevice, "must be an ALSA device name such as default or plughw:1,0, not \(device)")
        }
        return SpeechSettings(enabled: try bool(.speechEnabled), voice: voice, quietHours: quietHours, device: device)
    }

    /// `sms.*`: whether the hub texts people away from home, through which
    /// gammu-smsd, and how many texts a month the household pays for.
    func sms() throws -> SMSSettings {
        let config = try string(.smsdConfig)
        guard config.hasPrefix("/"), config.count <= 300, !config.contains("\0") else {
            throw problem(.smsdConfig, "must be the absolute path of gammu-smsd's configuration file, not \(config)")
        }
        return SMSSettings(enabled: try bool(.smsEnabled), smsdConfig: config,
                           monthlyLimit: try int(.smsMonthlyLimit, in: 1...10_000, unit: "texts"))
    }

    /// `push.*`: whether alerts are pushed through an Internet ntfy server
    /// to caregivers who chose it, which server, and what it may read.
    func push() throws -> PushSettings {
        let written = try string(.pushServer)
        guard let server = PushSettings.serverURL(written) else {
            throw problem(.pushServer, "must be an http(s) address such as https://ntfy.sh, not \(written)")
        }
        let contentText = try string(.pushContent)
        guard let content = PushSettings.Content(rawValue: contentText) else {
            throw problem(.pushContent, "must be kind-only or full, not \(contentText)")
        }
        return PushSettings(enabled: try bool(.pushEnabled), server: server, content: content)
    }
}
