import Foundation
import HearthCore
import HearthDiscovery
import HearthStore
import Logging
import ServiceLifecycle

/// Announces the hub on the LAN by mDNS/DNS-SD once its HTTP port is
/// listening: `<household> (Hearth)` as `_http._tcp` (for any browser's
/// service list) and `_hearth._tcp` (for household apps), and, when the
/// Notek listener is on, `_notek._tcp` (for Notek clients). Announces again
/// under the new name when the household is renamed, and keeps `board`
/// current for the health route. An absent avahi-daemon never stops the
/// hub: it logs one warning per outage and tries again with backoff.
struct DiscoveryService: Service {
    let store: HearthStore
    let board: DiscoveryBoard
    /// The port the HTTP server ended up listening on (the configured one may be 0).
    let listeningPort: AsyncStream<Int>
    /// The Notek listener's port, when it is on.
    var notekPort: AsyncStream<Int>? = nil
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            var ports = listeningPort.makeAsyncIterator()
            guard let port = await ports.next() else { return }
            var notek: Int?
            if let notekPort {
                var notekPorts = notekPort.makeAsyncIterator()
                guard let port = await notekPorts.next() else { return }
                notek = port
            }
            while !Task.isCancelled {
                guard let household = await currentHousehold() else { return }
                let renamed = await advertise(household, port: port, notekPort: notek)
                guard renamed else { return }
            }
        }
    }

    /// The services for `household`: the hub's web page and its API, and
    /// the Notek listener when it is on.
    static func advertisements(for household: Household, port: Int, notekPort: Int? = nil) -> [Advertisement] {
        let name = Advertisement.instanceName(household: household.name)
        let notek = notekPort.map { Advertisement(name: name, type: "_notek._tcp", port: UInt16(clamping: $0), txt: TXTRecord([])) }
        let port = UInt16(clamping: port)
        return [
            Advertisement(name: name, type: "_http._tcp", port: port, txt: TXTRecord([.init("path", "/")])),
            Advertisement(name: name, type: "_hearth._tcp", port: port, txt: TXTRecord([
                .init("id", household.id.text),
                .init("v", HearthVersion.current),
                .init("api", "/api/v1"),
            ])),
        ] + (notek.map { [$0] } ?? [])
    }

    private func currentHousehold() async -> Household? {
        while !Task.isCancelled {
            do {
                if let household = try await store.household() { return household }
            } catch {
                logger.warning("discovery cannot read the household", metadata: ["error": "\(error)"])
            }
            try? await Task.sleep(for: .seconds(1))
        }
        return nil
    }

    /// Advertises until the household is renamed (returns true) or the
    /// service is cancelled (returns false).
    private func advertise(_ household: Household, port: Int, notekPort: Int?) async -> Bool {
        let advertisements = Self.advertisements(for: household, port: port, notekPort: notekPort)
        let advertiser = Advertiser(advertisements: advertisements)
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await advertiser.run { event in record(event, advertisements: advertisements) }
                return false
            }
            group.addTask { await waitForRename(of: household) }
            while let renamed = await group.next() {
                if renamed {
                    group.cancelAll()
                    return true
                }
            }
            return false
        }
    }

    private func record(_ event: Advertiser.Event, advertisements: [Advertisement]) {
        switch event {
        case .advertising(let names):
            let services = zip(advertisements, names).map { advertisement, name in
                DiscoveryStatus.Service(type: advertisement.type, name: name, port: Int(advertisement.port))
            }
            board.advertising(services)
            logger.notice("discovery advertising", metadata: [
                "name": "\(names.first ?? "")",
                "types": "\(advertisements.map(\.type).joined(separator: ","))",
                "port": "\(advertisements.first?.port ?? 0)",
            ])
            for (advertisement, name) in zip(advertisements, names) where name != advertisement.name {
                logger.warning("discovery name taken on the network, renamed", metadata: [
                    "type": "\(advertisement.type)", "wanted": "\(advertisement.name)", "name": "\(name)",
                ])
            }
        case .waiting(let reason, let retryIn):
            let metadata: Logger.Metadata = ["reason": "\(reason)", "retryIn": "\(retryIn)"]
            if board.waiting() {
                logger.warning("discovery waiting for avahi-daemon; the hub keeps serving", metadata: metadata)
            } else {
                logger.debug("discovery still waiting for avahi-daemon", metadata: metadata)
            }
        }
    }

    /// Returns true once the household's name is no longer `household.name`;
    /// false when the change log closes (the hub is stopping).
    private func waitForRename(of household: Household) async -> Bool {
        while !Task.isCancelled {
            do {
                let cursor = try await store.latestSeq()
                if let now = try await store.household(), now.name != household.name { return true }
                let changes = try await store.subscribe(after: cursor, where: { $0.entity == .household })
                defer { changes.cancel() }
                for try await _ in changes {
                    if let now = try await store.household(), now.name != household.name { return true }
                }
                return false
            } catch {
                // Fell behind or could not read: look again shortly.
                try? await Task.sleep(for: .seconds(1))
            }
        }
        return false
    }
}
