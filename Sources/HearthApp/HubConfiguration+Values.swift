import Configuration
import Foundation
import HearthCore

extension HubConfiguration {
    /// The merged settings (flags over `HEARTH_*` over the file over the
    /// defaults), read one key at a time; a wrong value becomes a
    /// `ConfigurationProblem` naming the key and where it came from.
    struct Values {
        let reader: ConfigReader
        let flags: Flags
        let environment: [String: String]
        let filePath: String
        let fileKeys: [String: String]

        /// Where the value of `key` in force came from.
        func source(of key: Key) -> String {
            switch key {
            case .host where flags.host != nil: return "--host"
            case .port where flags.port != nil: return "--port"
            case .dataDirectory where flags.dataDirectory != nil: return "--data"
            case .webRoot where flags.webRoot != nil: return "--web-root"
            default:
                if environment[key.environmentName] != nil { return key.environmentName }
                if fileKeys[key.rawValue] != nil { return filePath }
                return "the defaults"
            }
        }

        func problem(_ key: Key, _ message: String) -> ConfigurationProblem {
            ConfigurationProblem(key: key.rawValue, source: source(of: key), message: message)
        }

        // Every key read with these has a default, so a throw is a value of the wrong type.

        func string(_ key: Key) throws -> String {
            do {
                return try reader.requiredString(forKey: ConfigKey(key.rawValue))
            } catch {
                throw problem(key, "must be text")
            }
        }

        func optionalString(_ key: Key) -> String? {
            reader.string(forKey: ConfigKey(key.rawValue))
        }

        func int(_ key: Key) throws -> Int {
            do {
                return try reader.requiredInt(forKey: ConfigKey(key.rawValue))
            } catch {
                throw problem(key, "must be a whole number")
            }
        }

        func int(_ key: Key, in range: ClosedRange<Int>, unit: String) throws -> Int {
            let value = try int(key)
            guard range.contains(value) else {
                throw problem(key, "must be from \(range.lowerBound) to \(range.upperBound) \(unit), not \(value)")
            }
            return value
        }

        func bool(_ key: Key) throws -> Bool {
            do {
                return try reader.requiredBool(forKey: ConfigKey(key.rawValue))
            } catch {
                throw problem(key, "must be true or false")
            }
        }

        /// An address to listen on: `key`'s, or `fallback` when it is unset.
        func address(_ key: Key, fallback: String? = nil) throws -> String {
            let host = try fallback.map { optionalString(key) ?? $0 } ?? string(key)
            guard !host.isEmpty, !host.contains(where: \.isWhitespace) else {
                throw problem(key, "must be an address such as 0.0.0.0 or 127.0.0.1")
            }
            return host
        }

        func port(_ key: Key) throws -> Int {
            let port = try int(key)
            guard (0...65535).contains(port) else {
                throw problem(key, "must be from 1 to 65535 (or 0 for any free port), not \(port)")
            }
            return port
        }
    }
}
