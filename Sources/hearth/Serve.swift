import ArgumentParser
import Foundation
import HearthApp
import Logging

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the hub: the web app, the API and live updates."
    )

    @Option(name: .long, help: "YAML configuration file (default: /etc/hearth/hearth.yaml when present).")
    var config: String?

    @Option(name: .long, help: "Directory for hearth.sqlite (default: ./.hearth).")
    var data: String?

    @Option(name: .long, help: "TCP port for HTTP (default: 8080; 0 picks a free one).")
    var port: Int?

    @Option(name: .long, help: "Address to listen on (default: 0.0.0.0, every interface).")
    var host: String?

    @Option(name: .customLong("web-root"), help: "Serve the web UI from this directory instead of the built-in copy.")
    var webRoot: String?

    func run() async throws {
        let flags = HubConfiguration.Flags(configFile: config, dataDirectory: data, port: port, host: host, webRoot: webRoot)
        let hubConfiguration = await loadConfiguration(flags)
        LoggingSystem.bootstrap { label in
            var handler = KeyValueLogHandler(label: label)
            handler.logLevel = Logger.Level(rawValue: hubConfiguration.logLevel) ?? .info
            return handler
        }
        let logger = Logger(label: "hearth")
        do {
            // Only when a person is watching: not under systemd, not in tests.
            let interactive = isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
            try await Hub.serve(hubConfiguration, logger: logger, offerFirstPairing: interactive) { port in
                let line = "Hearth is running. Open \(Hub.url(host: hubConfiguration.host, port: port)) in a browser.\n"
                FileHandle.standardOutput.write(Data(line.utf8))
            }
        } catch {
            fail("cannot run: \(error)")
        }
    }
}
