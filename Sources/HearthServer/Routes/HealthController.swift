import HearthAlerts
import HearthCore
import HearthStore
import Hummingbird

/// `GET /api/v1/health`: is the hub up, and which version. Needs no caller,
/// so a device can check a hub before pairing. An admin's device is also
/// told for how long, whether the database answers, whether the hub is
/// announced on the LAN, how webhooks, alert apps and the hub's voice are
/// doing — not anyone else's:
/// the times webhooks were delivered tell when an SOS or a missed dose
/// fired.
struct HealthController {
    let store: HearthStore
    let startedAt: ContinuousClock.Instant
    let discovery: @Sendable () -> DiscoveryStatus
    let webhooks: @Sendable () -> WebhookStatus
    let alerts: @Sendable () -> AlertChannels.Summary

    /// The details are nil (left out) for anyone but an admin.
    struct Health: ResponseEncodable {
        var status: String
        var version: String
        var uptimeSeconds: Int?
        var database: String?
        var discovery: DiscoveryStatus?
        var webhooks: WebhookStatus?
        /// Alert apps' open streams and the hub's voice, each with its last delivery.
        var alerts: AlertChannels.Summary?
    }

    func addRoutes(to api: RouterGroup<HearthRequestContext>) {
        let health = api.group(.health)
        // HEAD too: monitoring tools and load balancers probe with it.
        health.head { _, _ -> Response in
            Response(status: await store.isHealthy() ? .ok : .serviceUnavailable, headers: [.cacheControl: "no-store"])
        }
        health.get { _, context -> EditedResponse<Health> in
            let databaseOK = await store.isHealthy()
            var health = Health(status: databaseOK ? "ok" : "degraded", version: HearthVersion.current)
            if let actor = context.caller.policyActor, PermissionPolicy.decide(actor, .edit, .household) == .allow {
                health.uptimeSeconds = Int((ContinuousClock.now - startedAt).components.seconds)
                health.database = databaseOK ? "ok" : "unavailable"
                health.discovery = discovery()
                health.webhooks = webhooks()
                health.alerts = alerts()
            }
            return EditedResponse(status: databaseOK ? .ok : .serviceUnavailable,
                                  headers: [.cacheControl: "no-store"], response: health)
        }
    }
}
