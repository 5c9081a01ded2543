#if canImport(Darwin) && !canImport(HearthDiscovery)
import Foundation

/// Bonjour browsing on Apple platforms: `_hearth._tcp` services, each
/// resolved to a host and port. (Linux browses over Avahi in HearthDiscovery.)
@MainActor
final class BonjourBrowser: NSObject, NetServiceBrowserDelegate, NetServiceDelegate {
    private let browser = NetServiceBrowser()
    private var services: [NetService] = []
    private var found: [DiscoveredHub] = []

    static func browse(for timeout: Duration) async throws -> [DiscoveredHub] {
        let browser = BonjourBrowser()
        browser.browser.delegate = browser
        browser.browser.searchForServices(ofType: "_hearth._tcp.", inDomain: "local.")
        try await Task.sleep(for: timeout)
        browser.browser.stop()
        return browser.found
    }

    nonisolated func netServiceBrowser(_ browser: NetServiceBrowser, didFind service: NetService, moreComing: Bool) {
        MainActor.assumeIsolated {
            services.append(service)
            service.delegate = self
            service.resolve(withTimeout: 2)
        }
    }

    nonisolated func netServiceDidResolveAddress(_ sender: NetService) {
        MainActor.assumeIsolated {
            guard let host = sender.hostName, sender.port > 0,
                  let url = URL(string: "http://\(host):\(sender.port)/") else { return }
            let txt = sender.txtRecordData().map(NetService.dictionary(fromTXTRecord:)) ?? [:]
            let version = txt["v"].flatMap { String(data: $0, encoding: .utf8) }
            found.append(DiscoveredHub(name: sender.name, baseURL: url, version: version))
        }
    }
}
#endif
