/// Whether household devices can find the hub on the LAN right now, as
/// `GET /api/v1/health` tells it. Kept here, with no I/O, so the HTTP server
/// can report it without depending on the mDNS code.
public struct DiscoveryStatus: Sendable, Equatable, Codable {
    public enum State: String, Sendable, Codable {
        /// Every service is announced by the mDNS responder.
        case advertising
        /// The responder (avahi-daemon) is not there yet or went away; the
        /// hub keeps serving and tries again.
        case waitingForAvahi = "waiting-for-avahi"
        /// Switched off in the configuration (`discovery.enabled: false`).
        case disabled
    }

    /// One announced service, under the name the LAN sees: the household's
    /// name, or, when another device holds that name, one with a suffix
    /// such as ` #2`.
    public struct Service: Sendable, Equatable, Codable {
        public var type: String
        public var name: String
        public var port: Int

        public init(type: String, name: String, port: Int) {
            self.type = type
            self.name = name
            self.port = port
        }
    }

    public var state: State
    public var services: [Service]

    public init(state: State, services: [Service] = []) {
        self.state = state
        self.services = services
    }

    public static let disabled = DiscoveryStatus(state: .disabled)
}
