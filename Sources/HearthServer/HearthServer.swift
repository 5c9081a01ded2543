import Foundation
import HearthAlerts
import HearthCore
import HearthEditing
import HearthStore
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore

/// Where and how the HTTP server listens.
public struct ServerSettings: Sendable {
    public var host: String
    public var port: Int
    /// Serve `Web/` from this directory instead of the copy in the binary.
    public var webRoot: URL?
    /// Whether and how the hub is announced on the LAN, for the health route.
    public var discovery: @Sendable () -> DiscoveryStatus
    /// How outgoing webhooks are doing, for the health route.
    public var webhooks: @Sendable () -> WebhookStatus
    /// How far ahead of the hub's clock a syncing device's clock may read.
    public var syncMaximumSkew: TimeInterval = HearthStore.defaultMaximumSkew
    /// The link a pairing code made from a page carries: the hub's own
    /// address on the household network and its port, never the request's
    /// Host header (any page can send one). nil while the hub does not know
    /// it (not yet listening).
    public var pairingURL: @Sendable (_ secret: String) -> String? = { _ in nil }
    /// What one address may hold open, and how soon a connection must send
    /// its first request.
    public var connectionLimits = ConnectionLimits.household
    /// `http://<LAN address>:<port>`, what a phone's alert app is told to
    /// type in; nil while the hub does not know it.
    public var hubAddress: @Sendable () -> String? = { nil }
    /// The alert apps' streams and the hub's voice; the composition root
    /// makes them, so health and the Test button see the same ones.
    public var alertChannels: AlertChannels?
    /// `pairing.seniorInvitesNeedApproval`: a device a senior's tablet pairs
    /// does nothing until an admin approves it (by default).
    public var seniorInvitesNeedApproval = true

    public init(host: String = "0.0.0.0", port: Int = 8080, webRoot: URL? = nil,
                discovery: @escaping @Sendable () -> DiscoveryStatus = { .disabled },
                webhooks: @escaping @Sendable () -> WebhookStatus = { .none },
                syncMaximumSkew: TimeInterval = HearthStore.defaultMaximumSkew) {
        self.host = host
        self.port = port
        self.webRoot = webRoot
        self.discovery = discovery
        self.webhooks = webhooks
        self.syncMaximumSkew = syncMaximumSkew
    }
}

/// Builds the hub's HTTP and WebSocket application.
public enum HearthServer {
    public typealias App = Application<CanonicalPathResponder<RouterResponder<HearthRequestContext>>>

    /// The routes and middleware, without a listening socket; tests drive it
    /// on a loopback port (`LoopbackServer`) and the app uses it as its responder.
    /// Every request reaches them under its path's one spelling (HearthRouter).
    /// `noteSessions` is the hub's one set of note sessions (the composition
    /// root makes it): typing from editors and from sync meet in it.
    public static func router(
        store: HearthStore, noteSessions: NoteSessions, webRoot: URL? = nil, startedAt: ContinuousClock.Instant = .now,
        discovery: @escaping @Sendable () -> DiscoveryStatus = { .disabled },
        webhooks: @escaping @Sendable () -> WebhookStatus = { .none },
        now: (@Sendable () -> Date)? = nil,
        syncMaximumSkew: TimeInterval = HearthStore.defaultMaximumSkew,
        pairingURL: @escaping @Sendable (_ secret: String) -> String? = { _ in nil },
        alertChannels: AlertChannels? = nil,
        hubAddress: @escaping @Sendable () -> String? = { nil },
        seniorInvitesNeedApproval: Bool = true
    ) -> HearthRouter {
        // The hub's time, corrected when someone said its clock was wrong.
        let now = now ?? { store.currentTime() }
        let router = Router(context: HearthRequestContext.self)
        let assets = webRoot.map(WebAssets.directory) ?? WebAssets.embedded()
        router.middlewares.add(ConnectionCloseMiddleware())
        router.middlewares.add(SecurityHeadersMiddleware())
        router.middlewares.add(HubTimeMiddleware(now: now))
        router.middlewares.add(CompressionMiddleware())
        router.middlewares.add(ProblemMiddleware())
        router.middlewares.add(WebAppMiddleware(assets: assets))
        router.middlewares.add(CallerMiddleware(store: store))
        router.middlewares.add(PairedDeviceRequiredMiddleware())
        router.middlewares.add(OriginCheckMiddleware())
        // The JSON API: each controller under its resource (APIPath).
        let api = router.group(RouterPath(APIPath.root))
        let alertChannels = alertChannels ?? AlertChannels(store: store)
        HealthController(store: store, startedAt: startedAt, discovery: discovery, webhooks: webhooks,
                         alerts: alertChannels.summary).addRoutes(to: api)
        OpenAPIController(assets: assets).addRoutes(to: api)
        HouseholdController(store: store).addRoutes(to: api)
        PairingController(store: store, limiter: AttemptLimiter(limit: 10, window: 60)).addRoutes(to: api)
        InvitationsController(store: store, pairingURL: pairingURL, seniorInvitesNeedApproval: seniorInvitesNeedApproval)
            .addRoutes(to: api)
        PeopleController(store: store).addRoutes(to: api)
        ScreenController(store: store).addRoutes(to: api)
        AwayController(store: store, away: alertChannels.away).addRoutes(to: api)
        DevicesController(store: store).addRoutes(to: api)
        NotesController(store: store).addRoutes(to: api)
        NoteEditController.addHTTPRoutes(to: router, store: store)
        let cache = ReadCache(hub: store.hub)
        MedicationsController(store: store, now: now, cache: cache).addRoutes(to: api)
        TodayController(store: store, now: now, cache: cache).addRoutes(to: api)
        DosesController(store: store, now: now).addRoutes(to: api)
        ClockController(store: store).addRoutes(to: api)
        AlertsController(store: store).addRoutes(to: api)
        SyncController(store: store, sessions: noteSessions, maximumSkew: syncMaximumSkew).addRoutes(to: api)
        LiveController(store: store).addHTTPRoutes(to: router)
        AlertAppsController(store: store, channels: alertChannels, hubAddress: hubAddress).addRoutes(to: api)
        NtfyController(store: store, streams: alertChannels.streams).addRoutes(to: router)
        return HearthRouter(router: router,
                            documented: assets.file(at: "openapi.yaml").map { DocumentedMethods(openAPI: String(buffer: $0.bytes)) })
    }

    /// Only WebSocket upgrades reach this router; a refused upgrade falls
    /// through to the HTTP router, which explains the refusal.
    static func webSocketRouter(store: HearthStore, noteSessions: NoteSessions, alertChannels: AlertChannels) -> Router<HearthRequestContext> {
        let router = Router(context: HearthRequestContext.self)
        router.middlewares.add(CallerMiddleware(store: store))
        LiveController(store: store, deliveries: alertChannels.deliveries, pages: alertChannels.pages).addWebSocketRoutes(to: router)
        NtfyController(store: store, streams: alertChannels.streams).addWebSocketRoutes(to: router)
        NoteEditController(store: store, sessions: noteSessions).addWebSocketRoutes(to: router)
        return router
    }

    public static func application(
        store: HearthStore,
        settings: ServerSettings,
        logger: Logger,
        noteSessions: NoteSessions,
        onServerRunning: @escaping @Sendable (_ port: Int) async -> Void = { _ in }
    ) -> App {
        let startedAt = ContinuousClock.now
        let alertChannels = settings.alertChannels ?? AlertChannels(store: store)
        // One session per open note, whether typing comes from an editor or a device's sync.
        return Application(
            router: router(store: store, noteSessions: noteSessions, webRoot: settings.webRoot, startedAt: startedAt, discovery: settings.discovery,
                           webhooks: settings.webhooks, syncMaximumSkew: settings.syncMaximumSkew,
                           pairingURL: settings.pairingURL, alertChannels: alertChannels, hubAddress: settings.hubAddress,
                           seniorInvitesNeedApproval: settings.seniorInvitesNeedApproval),
            server: .guardedHTTP1WebSocketUpgrade(
                webSocketRouter: webSocketRouter(store: store, noteSessions: noteSessions, alertChannels: alertChannels),
                configuration: .init(
                    http1: .init(idleTimeout: .seconds(120)),
                    ws: .init(maxFrameSize: HearthLimits.webSocketMessage, autoPing: .enabled(timePeriod: .seconds(30)))
                ),
                limits: settings.connectionLimits
            ),
            configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: "Hearth"),
            onServerRunning: { channel in
                await onServerRunning(channel.localAddress?.port ?? settings.port)
            },
            logger: logger
        )
    }
}
