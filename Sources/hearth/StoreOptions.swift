import ArgumentParser
import HearthApp

/// Where the admin commands find the hub's database: the same settings `serve` reads.
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: "YAML configuration file (default: /etc/hearth/hearth.yaml when present).")
    var config: String?

    @Option(name: .long, help: "Directory holding hearth.sqlite (default: from the configuration, else ./.hearth).")
    var data: String?

    var flags: HubConfiguration.Flags { .init(configFile: config, dataDirectory: data) }
}
