// swift-tools-version: 6.2
// The module table, with what each target may import, lives in Docs/architecture.md.
import PackageDescription

let package = Package(
    name: "hearth",
    // HearthKit's promise to apps.
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .executable(name: "hearth", targets: ["hearth"]),
        // For household apps: a local copy of the hub that works offline and syncs.
        .library(name: "HearthKit", targets: ["HearthKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0", traits: ["YAML"]),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/adam-fowler/compress-nio", from: "1.5.0"),
        .package(url: "https://github.com/hummingbird-project/swift-websocket", from: "1.6.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
    ],
    targets: [
        // The command line: argument parsing only.
        .executableTarget(
            name: "hearth",
            dependencies: [
                "HearthApp",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Composition root: configuration, store, service group.
        .target(
            name: "HearthApp",
            dependencies: [
                "HearthCore", "HearthStore", "HearthEditing", "HearthAlerts", "HearthServer", "HearthQR", "HearthDiscovery", "HearthReminders",
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                // Outgoing webhooks: a small HTTP/1.1 client on the event loops the server already runs.
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        // Domain types and rules, no I/O.
        .target(name: "HearthCore"),
        // SHA-256 and HMAC-SHA-256, no I/O (Sources/HearthDigest/SHA256.swift says why not swift-crypto).
        .target(name: "HearthDigest"),
        // The note-text CRDT and its binary encoding (Docs/note-crdt.md), no I/O.
        .target(name: "HearthCRDT"),
        .target(
            name: "HearthStore",
            dependencies: [
                // HearthDigest: device tokens and pairing codes are stored only as SHA-256 hashes.
                "HearthCore", "HearthCRDT", "HearthDigest",
                .product(name: "GRDB", package: "GRDB.swift"),
                // GRDBSQLite: SQLite's C API for the one call GRDB does not wrap (LogCheckpointer's WAL hook).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Live note editing: one session per open note, relaying typing and
        // storing it, and the bridge that makes a Notek client one more editor.
        .target(
            name: "HearthEditing",
            dependencies: [
                "HearthCore", "HearthCRDT", "HearthStore", "HearthNotek",
                .product(name: "Logging", package: "swift-log"),
                // NoteSessions is a service of the hub's group.
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .target(
            name: "HearthServer",
            dependencies: [
                "HearthCore", "HearthCRDT", "HearthStore", "HearthEditing", "HearthAlerts", "HearthQR", "HearthNotek",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                // LiveStreams and the Notek clients' open notes are services of the hub's group.
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                // gzip for large JSON answers (a first sync of years of history).
                .product(name: "CompressNIO", package: "compress-nio"),
                // The request decoder's errors, answered before Hummingbird has a request (FirstRequestHead).
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            plugins: ["EmbedWebAssets"]
        ),
        // Alerts where people are: ntfy-protocol streams for phones' alert
        // apps, replayed from the alert history; the hub's voice.
        .target(
            name: "HearthAlerts",
            dependencies: [
                // HearthDigest: HMAC-signed links behind a notification's buttons (AlertActionLink).
                "HearthCore", "HearthStore", "HearthDigest", "CCurl",
                .product(name: "Logging", package: "swift-log"),
                // The hub's voice is a service of the hub's group.
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The reminder service: due and missed doses, on an injected clock.
        .target(
            name: "HearthReminders",
            dependencies: [
                "HearthCore", "HearthStore",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // QR codes for pairing: terminal and SVG drawings of libqrencode's matrix.
        .target(name: "HearthQR", dependencies: ["CQREncode"]),
        // mDNS/DNS-SD: announcing the hub and finding hubs, over Avahi's Bonjour-compatible library.
        .target(name: "HearthDiscovery", dependencies: ["CDNSSD"]),
        // The Notek wire protocol (Logoot position identifiers over binary
        // WebSocket frames) and the mirror that keeps a position for every
        // character of a Hearth note; no I/O.
        .target(name: "HearthNotek", dependencies: ["HearthCore", "HearthCRDT"]),
        // The C libraries behind discovery and pairing QR codes.
        .systemLibrary(name: "CDNSSD", pkgConfig: "avahi-compat-libdns_sd", providers: [.apt(["libavahi-compat-libdnssd-dev"])]),
        .systemLibrary(name: "CQREncode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        // HTTPS to the Internet push server with the system's TLS (Depends:
        // libcurl4): only the header here; the library is opened when the first
        // push is sent (Sources/CCurl/shim.h says why).
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),

        // A WebSocket client for the hub's plain ws:// sockets (HearthKit's
        // /live listener, the benchmarks, the tests): swift-websocket's frame
        // handling on NIO, without the TLS stack a general client brings.
        .target(
            name: "HearthSocketClient",
            dependencies: [
                .product(name: "WSCore", package: "swift-websocket"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ]
        ),

        // The client library: a local SQLite mirror, an outbox and the sync
        // loop over HTTP, a /live listener, reactive reads and hub browsing.
        .target(
            name: "HearthKit",
            dependencies: [
                "HearthCore", "HearthCRDT",
                .product(name: "GRDB", package: "GRDB.swift"),
                // The /live listener: URLSession has no WebSocket on Linux.
                "HearthSocketClient",
                .product(name: "Logging", package: "swift-log"),
                // Browsing for hubs over Avahi on Linux; Apple platforms use Bonjour.
                .target(name: "HearthDiscovery", condition: .when(platforms: [.linux])),
            ]
        ),
        // An example app on HearthKit: today's doses and notes from a terminal, offline.
        .executableTarget(
            name: "hearth-cli",
            dependencies: ["HearthKit", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),

        // Measurements that are not tests (`swift run -c release hearth-bench crdt`).
        .executableTarget(
            name: "hearth-bench",
            dependencies: [
                "HearthCRDT", "HearthKit", "HearthServer", "HearthEditing", "HearthStore", "HearthCore",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                "HearthSocketClient",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),

        // Build-time: compiles Web/ into HearthServer as Swift string literals.
        .executableTarget(name: "hearth-embed-web", path: "Sources/hearth-embed-web"),
        .plugin(name: "EmbedWebAssets", capability: .buildTool(), dependencies: ["hearth-embed-web"]),

        // What several test targets share: `expectEqual`, a seeded generator for randomized tests, temporary directories, the vectors' hex.
        .target(name: "HearthTestSupport", dependencies: ["HearthCore"], path: "Tests/HearthTestSupport"),
        // A real hub on a loopback port with a real SQLite file, and an HTTP
        // client for it, for the server's, the app's and HearthKit's tests.
        .target(
            name: "HearthHubTestSupport",
            dependencies: [
                "HearthServer", "HearthEditing", "HearthStore", "HearthTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Tests/HearthHubTestSupport"
        ),
        .testTarget(name: "HearthCoreTests", dependencies: ["HearthCore", "HearthTestSupport"]),
        .testTarget(name: "HearthDigestTests", dependencies: ["HearthDigest", "HearthTestSupport"]),
        .testTarget(name: "HearthAlertsTests", dependencies: ["HearthAlerts", "HearthStore", "HearthCore", "HearthTestSupport",
                                                     .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "HearthStoreTests", dependencies: ["HearthStore", "HearthTestSupport", .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(
            name: "HearthServerTests",
            dependencies: [
                "HearthServer", "HearthEditing", "HearthAlerts", "HearthStore", "HearthCRDT", "HearthNotek", "HearthTestSupport", "HearthHubTestSupport",
                "HearthSocketClient",
                // Unzips what the hub gzipped.
                .product(name: "CompressNIO", package: "compress-nio"),
                // Reads Web/openapi.yaml to check it against the router.
                .product(name: "Yams", package: "Yams"),
                // Holds the database's write lock, as a disk whose fsync stalls would.
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                // A loopback relay that hands a client the hub's answer and its end in one read.
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "HearthAppTests",
            dependencies: [
                "HearthApp", "HearthStore", "HearthCore", "HearthDiscovery", "HearthTestSupport", "HearthHubTestSupport",
                // A real HTTP receiver on loopback for the webhook tests.
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "HearthRemindersTests",
            dependencies: ["HearthReminders", "HearthStore", "HearthCore", "HearthTestSupport", .product(name: "Logging", package: "swift-log")]
        ),
        .testTarget(name: "HearthDiscoveryTests", dependencies: ["HearthDiscovery", "HearthTestSupport"]),
        .testTarget(name: "HearthCRDTTests", dependencies: ["HearthCRDT", "HearthTestSupport"]),
        .testTarget(name: "HearthQRTests", dependencies: ["HearthQR", "HearthTestSupport"]),
        .testTarget(name: "HearthNotekTests", dependencies: ["HearthNotek", "HearthCRDT", "HearthTestSupport"]),
        .testTarget(
            name: "HearthKitTests",
            dependencies: [
                "HearthKit", "HearthServer", "HearthStore", "HearthCore", "HearthCRDT", "HearthHubTestSupport", "HearthTestSupport",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                // A loopback proxy that loses a response after the hub has answered.
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
