import CDNSSD
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds hubs on the LAN: browses for a service type, resolves each instance
/// to its host, port and text record, and looks up the host's addresses.
public enum HubBrowser {
    /// What the DNS-SD callbacks tell, in the order they come.
    enum Finding: Sendable {
        case appeared(name: String, type: String, domain: String, interface: UInt32)
        case vanished(name: String)
        case resolved(name: String, host: String, port: Int, txt: TXTRecord, interface: UInt32)
        case address(host: String, text: String)
        case failed(DNSSDError)
    }

    /// Browses for `timeout` and returns every hub still present at the end,
    /// sorted by name. Throws when the responder cannot be reached at all.
    public static func browse(type: String = "_hearth._tcp", for timeout: Duration) async throws -> [FoundHub] {
        let (findings, continuation) = AsyncStream.makeStream(of: Finding.self)
        let browse = try DNSSDOperation(
            "browse \(type)", replies: Replies(continuation, tag: ""),
            onBroken: { continuation.yield(.failed($0)) }
        ) { ref, context in
            DNSServiceBrowse(ref, 0, 0, type, "local.", { _, flags, interface, code, name, type, domain, context in
                guard let context else { return }
                let replies = Unmanaged<Replies>.fromOpaque(context).takeUnretainedValue()
                guard code == DNSServiceErrorType(kDNSServiceErr_NoError), let name, let type, let domain else {
                    replies.continuation.yield(.failed(DNSSDError(code: code, operation: "browse")))
                    return
                }
                if flags & DNSServiceFlags(kDNSServiceFlagsAdd) != 0 {
                    replies.continuation.yield(.appeared(name: String(cString: name), type: String(cString: type),
                                                         domain: String(cString: domain), interface: interface))
                } else {
                    replies.continuation.yield(.vanished(name: String(cString: name)))
                }
            }, context)
        }
        let deadline = Task {
            try? await Task.sleep(for: timeout)
            continuation.finish()
        }
        var lookups: [DNSSDOperation] = []
        var hubs: [String: FoundHub] = [:]
        var resolving: Set<String> = []
        var addresses: [String: [String]] = [:]
        var queried: Set<String> = []
        var failure: DNSSDError?
        for await finding in findings {
            switch finding {
            case .appeared(let name, let type, let domain, let interface):
                guard resolving.insert(name).inserted else { continue }
                if let lookup = try? resolve(name: name, type: type, domain: domain, interface: interface, into: continuation) {
                    lookups.append(lookup)
                }
            case .vanished(let name):
                hubs[name] = nil
                resolving.remove(name)
            case .resolved(let name, let host, let port, let txt, let interface):
                hubs[name] = FoundHub(name: name, host: host, addresses: [], port: port,
                                      version: txt["v"], householdID: txt["id"], apiPath: txt["api"])
                guard queried.insert(host).inserted else { continue }
                for recordType in [kDNSServiceType_A, kDNSServiceType_AAAA] {
                    if let lookup = try? queryAddress(host: host, type: UInt16(recordType), interface: interface, into: continuation) {
                        lookups.append(lookup)
                    }
                }
            case .address(let host, let text):
                if !(addresses[host, default: []].contains(text)) { addresses[host, default: []].append(text) }
            case .failed(let error):
                failure = error
            }
        }
        deadline.cancel()
        await browse.cancel()
        for lookup in lookups { await lookup.cancel() }
        if hubs.isEmpty, let failure { throw failure }
        return hubs.values.map { hub in
            var hub = hub
            // IPv4 first: it is what most household devices will use.
            let found = addresses[hub.host] ?? []
            hub.addresses = found.filter { !$0.contains(":") } + found.filter { $0.contains(":") }
            hub.host = hub.host.hasSuffix(".") ? String(hub.host.dropLast()) : hub.host
            return hub
        }.sorted { $0.name < $1.name }
    }

    private static func resolve(name: String, type: String, domain: String, interface: UInt32,
                                into continuation: AsyncStream<Finding>.Continuation) throws -> DNSSDOperation {
        try DNSSDOperation(
            "resolve \(name)", replies: Replies(continuation, tag: name),
            onBroken: { continuation.yield(.failed($0)) }
        ) { ref, context in
            DNSServiceResolve(ref, 0, interface, name, type, domain, { _, _, interface, code, _, host, port, length, txt, context in
                guard let context else { return }
                let replies = Unmanaged<Replies>.fromOpaque(context).takeUnretainedValue()
                guard code == DNSServiceErrorType(kDNSServiceErr_NoError), let host else { return }
                let bytes = txt.map { Array(UnsafeBufferPointer(start: $0, count: Int(length))) } ?? []
                replies.continuation.yield(.resolved(name: replies.tag, host: String(cString: host),
                                                     port: Int(UInt16(bigEndian: port)),
                                                     txt: TXTRecord.decode(bytes), interface: interface))
            }, context)
        }
    }

    private static func queryAddress(host: String, type: UInt16, interface: UInt32,
                                     into continuation: AsyncStream<Finding>.Continuation) throws -> DNSSDOperation {
        try DNSSDOperation(
            "look up \(host)", replies: Replies(continuation, tag: host),
            onBroken: { continuation.yield(.failed($0)) }
        ) { ref, context in
            DNSServiceQueryRecord(ref, 0, interface, host, type, UInt16(kDNSServiceClass_IN), { _, flags, interface, code, _, type, _, length, data, _, context in
                guard let context else { return }
                let replies = Unmanaged<Replies>.fromOpaque(context).takeUnretainedValue()
                guard code == DNSServiceErrorType(kDNSServiceErr_NoError), flags & DNSServiceFlags(kDNSServiceFlagsAdd) != 0,
                      let data, let text = HubBrowser.addressText(type: type, data: data, length: Int(length), interface: interface)
                else { return }
                replies.continuation.yield(.address(host: replies.tag, text: text))
            }, context)
        }
    }

    /// An A or AAAA record's data as text; IPv6 link-local addresses get
    /// their interface (`fe80::1%eth0`), without which they cannot be used.
    static func addressText(type: UInt16, data: UnsafeRawPointer, length: Int, interface: UInt32) -> String? {
        let family: Int32
        switch (Int(type), length) {
        case (kDNSServiceType_A, 4): family = AF_INET
        case (kDNSServiceType_AAAA, 16): family = AF_INET6
        default: return nil
        }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(family, data, &buffer, socklen_t(buffer.count)) != nil else { return nil }
        var text = Self.text(of: buffer)
        if family == AF_INET6, text.lowercased().hasPrefix("fe80:"), interface != 0 {
            var name = [CChar](repeating: 0, count: Int(IF_NAMESIZE) + 1)
            if if_indextoname(interface, &name) != nil { text += "%" + Self.text(of: name) }
        }
        return text
    }

    /// A NUL-terminated C string held in an array, as a Swift string.
    private static func text(of characters: [CChar]) -> String {
        String(decoding: characters.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The context of one request's callbacks.
    private final class Replies: Sendable {
        let continuation: AsyncStream<Finding>.Continuation
        /// The instance or host name the request is about.
        let tag: String

        init(_ continuation: AsyncStream<Finding>.Continuation, tag: String) {
            self.continuation = continuation
            self.tag = tag
        }
    }
}
