import HearthCore
import HearthStore
import Hummingbird

/// `GET /api/v1/health`: is the hub up, which version, for how long, does
/// its database answer, and can devices find it on the LAN. Needs no caller,
/// so a device can check a hub before pairing.
struct HealthController {
    let store: HearthStore
    let startedAt: ContinuousClock.Instant
    let discovery: @Sendable () -> DiscoveryStatus
    let webhooks: @Sendable () -> WebhookStatus

    struct Health: ResponseEncodable {
        var status: String
        var version: String
        var uptimeSeconds: Int
        var database: String
        var discovery: DiscoveryStatus
        var webhooks: WebhookStatus
    }

    func addRoutes(to router: Router<HearthRequestContext>) {
        // HEAD too: monitoring tools and load balancers probe with it.
        router.head("/api/v1/health") { _, _ -> Response in
            Response(status: await store.isHealthy() ? .ok : .serviceUnavailable, headers: [.cacheControl: "no-store"])
        }
        router.get("/api/v1/health") { _, _ -> EditedResponse<Health> in
            let databaseOK = await store.isHealthy()
            let health = Health(
                status: databaseOK ? "ok" : "degraded",
                version: HearthVersion.current,
                uptimeSeconds: Int((ContinuousClock.now - startedAt).components.seconds),
                database: databaseOK ? "ok" : "unavailable",
                discovery: discovery(),
                webhooks: webhooks()
            )
            return EditedResponse(status: databaseOK ? .ok : .serviceUnavailable,
                                  headers: [.cacheControl: "no-store"], response: health)
        }
    }
}
