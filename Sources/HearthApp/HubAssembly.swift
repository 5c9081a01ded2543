import Foundation
import HearthAlerts
import HearthCore
import HearthEditing
import HearthReminders
import HearthServer
import HearthStore
import Logging
import ServiceLifecycle

/// Puts a hub's services together from its configuration and open store
/// (`Hub.build`): which run, in what order, and what they share.
struct HubAssembly {
    let configuration: HubConfiguration
    let store: HearthStore
    let lock: DataDirectoryLock
    let logger: Logger
    let offerFirstPairing: Bool
    let onReady: @Sendable (_ port: Int) async -> Void

    func assemble() -> AssembledHub {
        let webhooks = WebhookBoard(configured: Array(configuration.webhooks.keys))
        let discovery = DiscoveryBoard(configuration.discoveryEnabled ? DiscoveryStatus(state: .waitingForAvahi) : .disabled)
        let (listeningPort, portKnown) = AsyncStream.makeStream(of: Int.self)
        let noteSessions = NoteSessions(store: store, logger: logger)
        let systemd = SystemdNotifier()
        let alerts = alertChannels()
        let servingPort = Locked<Int?>(nil)
        let server = application(noteSessions: noteSessions, discovery: discovery, webhooks: webhooks, systemd: systemd,
                                 alerts: alerts, servingPort: servingPort, portKnown: portKnown)
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [
            .init(service: server),
            // Told to stop late: it keeps what the streams delivered until they end.
            .init(service: DeliveryRecorder(store: store, board: alerts.deliveries, logger: logger)),
            .init(service: ExternalChangesService(store: store, logger: logger)),
            // Told to stop before the server: live listeners and note editors end.
            .init(service: LiveStreams(hub: store.hub)),
            .init(service: noteSessions),
            .init(service: TrashService(store: store, logger: logger)),
            .init(service: ChangeLogCompactionService(
                store: store, logger: logger, retention: TimeInterval(configuration.syncRetentionDays) * 86_400)),
            .init(service: ReminderService(store: store, clock: SystemReminderClock(time: { [store] in store.currentTime() }),
                                           logger: logger)),
        ]
        var notekPort: AsyncStream<Int>?
        if configuration.notek.enabled {
            let (ports, portFound) = AsyncStream.makeStream(of: Int.self)
            notekPort = ports
            services += notek(noteSessions: noteSessions, portFound: portFound)
        }
        if let voice = alerts.voice {
            services.append(.init(service: voice))
        }
        if configuration.push.enabled {
            services.append(.init(service: PollRequests(
                store: store, sender: PushSender(server: configuration.push.server),
                hubServer: { [configuration] in Self.hubAddress(servingPort, listeningOn: configuration.host).map { $0 + "/ntfy" } },
                logger: logger)))
        }
        if configuration.sms.enabled || configuration.push.enabled {
            services.append(.init(service: AwayFromHomeService(
                store: store, sms: configuration.sms, push: configuration.push, quietHours: configuration.speech.quietHours,
                status: alerts.away, logger: logger)))
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
        return AssembledHub(store: store, application: server, services: services, lock: lock)
    }

    /// The HTTP/WebSocket server; once it listens it tells the data
    /// directory's lock, the log, systemd, discovery and `onReady` its port.
    /// The alert apps' streams and, when `speech.enabled`, the hub's voice.
    private func alertChannels() -> AlertChannels {
        let streams = AlertStreams(store: store, deliveries: DeliveryBoard(now: { [store] in store.currentTime() }), logger: logger)
        let away = AwayStatus(sms: configuration.sms, push: configuration.push)
        guard configuration.speech.enabled else { return AlertChannels(streams: streams, away: away) }
        let voice = HubVoice(store: store, settings: configuration.speech, board: streams.deliveries,
                             status: VoiceStatus(enabled: true), logger: logger)
        return AlertChannels(streams: streams, voice: voice, away: away)
    }

    /// What a phone's alert app types in: the LAN address, never `.local`; nil until the hub listens.
    static func hubAddress(_ servingPort: Locked<Int?>, listeningOn listenHost: String) -> String? {
        servingPort.withLock { $0 }.map { port in
            let host = PairingSession.reachableHost(listeningOn: listenHost)
            return "http://\(host.contains(":") ? "[\(host)]" : host):\(port)"
        }
    }

    private func application(noteSessions: NoteSessions, discovery: DiscoveryBoard, webhooks: WebhookBoard,
                             systemd: SystemdNotifier, alerts: AlertChannels, servingPort: Locked<Int?>,
                             portKnown: AsyncStream<Int>.Continuation) -> HearthServer.App {
        let (configuration, store, lock, logger, onReady) = (configuration, store, lock, logger, onReady)
        let offerFirstPairing = offerFirstPairing
        let listenHost = configuration.host
        var settings = ServerSettings(
            host: configuration.host, port: configuration.port,
            webRoot: configuration.webRoot.map { URL(fileURLWithPath: $0, isDirectory: true) },
            discovery: { discovery.current }, webhooks: { webhooks.current },
            syncMaximumSkew: TimeInterval(configuration.syncMaximumSkewSeconds))
        // Codes made from a page carry the hub's own address, as `hearth pair` prints it.
        settings.alertChannels = alerts
        settings.seniorInvitesNeedApproval = configuration.seniorInvitesNeedApproval
        // What a phone's alert app types in: the LAN address, never `.local`.
        settings.hubAddress = { Self.hubAddress(servingPort, listeningOn: listenHost) }
        settings.pairingURL = { secret in
            servingPort.withLock { $0 }.map { port in
                PairingSession.url(host: PairingSession.reachableHost(listeningOn: listenHost), port: port, secret: secret)
            }
        }
        return HearthServer.application(store: store, settings: settings, logger: logger, noteSessions: noteSessions) { port in
            servingPort.withLock { $0 = port }
            lock.announce(port: port)
            logger.notice("hub ready", metadata: ["url": "\(Hub.url(host: configuration.host, port: port))"])
            portKnown.yield(port)
            portKnown.finish()
            systemd.notify("READY=1\nSTATUS=Serving on port \(port)")
            await onReady(port)
            if offerFirstPairing, (try? await store.hasPairedDevices()) == false {
                Hub.offerFirstPairing(store: store, port: port, listenHost: configuration.host, logger: logger)
            }
        }
    }

    /// The listener for Notek clients and the notes they hold open.
    private func notek(noteSessions: NoteSessions,
                       portFound: AsyncStream<Int>.Continuation) -> [ServiceGroupConfiguration.ServiceConfiguration] {
        let logger = logger
        let openNotes = NotekListener.OpenNotes(store: store, noteSessions: noteSessions, logger: logger)
        let notek = configuration.notek
        let listener = NotekListener.application(
            store: store, openNotes: openNotes, host: notek.host, port: notek.port, logger: logger
        ) { port in
            logger.notice("notek listening", metadata: ["address": "\(notek.host):\(port)",
                "warning": "any device on the LAN can read and edit shared notes"])
            portFound.yield(port)
            portFound.finish()
        }
        return [.init(service: listener), .init(service: openNotes)]
    }
}
