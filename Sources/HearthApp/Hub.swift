import Foundation
import HearthCore
import HearthEditing
import HearthReminders
import HearthServer
import HearthStore
import Logging
import NIOCore
import ServiceLifecycle

/// The composition root: opens the store, builds the services and runs them
/// as one group until SIGTERM or SIGINT.
public enum Hub {
    /// Runs the hub until it is asked to stop. `onReady` gets the port actually
    /// listened on (useful with port 0).
    public static func serve(
        _ configuration: HubConfiguration,
        logger: Logger,
        offerFirstPairing: Bool = false,
        onReady: @escaping @Sendable (_ port: Int) async -> Void = { _ in }
    ) async throws {
        let directory = URL(fileURLWithPath: configuration.dataDirectory, isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // Held until this function returns (the process ends, at the latest).
        guard let lock = try DataDirectoryLock.acquire(directory: directory) else {
            throw HubError.alreadyServing(directory: directory.path)
        }
        defer { lock.withdraw() }
        let store = try HearthStore(directory: directory)
        DatabaseFileAccess.shareWithGroup(directory)
        let systemd = SystemdNotifier()
        do {
            let household = try await store.ensureHousehold(
                name: configuration.householdName, timeZone: configuration.householdTimeZone)
            logger.info("store opened", metadata: [
                "path": "\(directory.appendingPathComponent(HearthStore.fileName).path)",
                "household": "\(household.id.text)",
            ])
            let webhooks = WebhookBoard(configured: Array(configuration.webhooks.keys))
            let discovery = DiscoveryBoard(configuration.discoveryEnabled ? DiscoveryStatus(state: .waitingForAvahi) : .disabled)
            let (listeningPort, portKnown) = AsyncStream.makeStream(of: Int.self)
            let servingPort = Locked<Int?>(nil)
            let listenHost = configuration.host
            var settings = ServerSettings(
                host: configuration.host, port: configuration.port,
                webRoot: configuration.webRoot.map { URL(fileURLWithPath: $0, isDirectory: true) },
                discovery: { discovery.current }, webhooks: { webhooks.current },
                syncMaximumSkew: TimeInterval(configuration.syncMaximumSkewSeconds))
            // Codes made from a page carry the hub's own address, as `hearth pair` prints it.
            settings.pairingURL = { secret in
                servingPort.withLock { $0 }.map { port in
                    PairingSession.url(host: PairingSession.reachableHost(listeningOn: listenHost), port: port, secret: secret)
                }
            }
            let noteSessions = NoteSessions(store: store, logger: logger)
            let server = HearthServer.application(store: store, settings: settings, logger: logger, noteSessions: noteSessions) { port in
                servingPort.withLock { $0 = port }
                lock.announce(port: port)
                logger.notice("hub ready", metadata: ["url": "\(Self.url(host: configuration.host, port: port))"])
                portKnown.yield(port)
                portKnown.finish()
                systemd.notify("READY=1\nSTATUS=Serving on port \(port)")
                await onReady(port)
                if offerFirstPairing, (try? await store.hasPairedDevices()) == false {
                    Self.offerFirstPairing(store: store, port: port, listenHost: configuration.host, logger: logger)
                }
            }
            var services: [ServiceGroupConfiguration.ServiceConfiguration] = [
                .init(service: server),
                .init(service: ExternalChangesService(store: store, logger: logger)),
                // Told to stop before the server: live listeners and note editors end.
                .init(service: LiveStreams(hub: store.hub)),
                .init(service: noteSessions),
                .init(service: TrashService(store: store, logger: logger)),
                .init(service: ChangeLogCompactionService(
                    store: store, logger: logger, retention: TimeInterval(configuration.syncRetentionDays) * 86_400)),
                .init(service: ReminderService(store: store, clock: SystemReminderClock(time: { store.currentTime() }), logger: logger)),
            ]
            var notekPort: AsyncStream<Int>?
            if configuration.notek.enabled {
                let openNotes = NotekListener.OpenNotes(store: store, noteSessions: noteSessions, logger: logger)
                let (ports, portFound) = AsyncStream.makeStream(of: Int.self)
                notekPort = ports
                let notek = configuration.notek
                services.append(.init(service: NotekListener.application(
                    store: store, openNotes: openNotes, host: notek.host, port: notek.port, logger: logger
                ) { port in
                    logger.notice("notek listening", metadata: ["address": "\(notek.host):\(port)",
                        "warning": "any device on the LAN can read and edit shared notes"])
                    portFound.yield(port)
                    portFound.finish()
                }))
                services.append(.init(service: openNotes))
            }
            if !configuration.webhooks.isEmpty {
                services.append(.init(service: WebhookService(
                    store: store, targets: configuration.webhooks, board: webhooks, logger: logger)))
            }
            if configuration.discoveryEnabled {
                // Near the end, so it is told to stop early: the hub leaves
                // the LAN's lists before it stops answering.
                services.append(.init(service: DiscoveryService(
                    store: store, board: discovery, listeningPort: listeningPort, notekPort: notekPort, logger: logger)))
            } else {
                logger.info("discovery disabled", metadata: [:])
            }
            if systemd.isActive {
                // Last: asked to stop first, so systemd hears STOPPING at once.
                services.append(.init(service: SystemdNotifyService(notifier: systemd)))
            }
            var groupConfiguration = ServiceGroupConfiguration(
                services: services,
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger
            )
            // systemd waits 5 s; leave room to close the database after this.
            groupConfiguration.maximumGracefulShutdownDuration = .seconds(3)
            try await ServiceGroup(configuration: groupConfiguration).run()
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            try? store.close()
            throw HubError.addressInUse(host: configuration.host, port: configuration.port)
        } catch {
            try? store.close()
            throw error
        }
        try store.close()
        logger.info("hub stopped", metadata: [:])
    }

    /// A hub nobody can use yet, started by hand in a terminal, shows a
    /// pairing code for its first admin right away.
    static func offerFirstPairing(store: HearthStore, port: Int, listenHost: String, logger: Logger) {
        Task {
            var options = PairingSession.Options()
            if let admin = try? await store.people().first(where: { $0.role == .admin }) {
                options.person = admin.name
            } else {
                options.newPerson = "Admin"
                options.role = .admin
            }
            let session = PairingSession(store: store, port: port, listenHost: listenHost, options: options, isTerminal: false) { text in
                FileHandle.standardOutput.write(Data(text.utf8))
            }
            do {
                _ = try await session.run(pollEvery: .seconds(1))
            } catch {
                logger.warning("could not show a first pairing code", metadata: ["error": "\(error)"])
            }
        }
    }

    /// The address a person on this machine can open.
    public static func url(host: String, port: Int) -> String {
        let shown = (host == "0.0.0.0" || host == "::") ? "localhost" : (host.contains(":") ? "[\(host)]" : host)
        return "http://\(shown):\(port)/"
    }
}
