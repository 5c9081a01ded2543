import Foundation
import HearthCore
import HearthQR
import HearthStore

/// `hearth pair`: makes a pairing code, draws it as a QR code in the
/// terminal with the URL and the short code under it, and waits until a
/// device uses it or it expires.
public struct PairingSession {
    public struct Options: Sendable {
        public var person: String?
        public var newPerson: String?
        public var role: Person.Role?
        public var deviceName: String?
        public var lifetime: Duration = PairingCode.defaultLifetime
        public var ascii = false
        public var urlHost: String?

        public init() {}
    }

    public enum Outcome: Sendable, Equatable {
        case paired(String)
        case expired
    }

    let store: HearthStore
    let port: Int
    /// The address the hub listens on; a specific one is also the one to put in the URL.
    let listenHost: String
    let options: Options
    /// Where the screen goes; standard output in the CLI.
    let write: @Sendable (String) -> Void
    let isTerminal: Bool

    public init(store: HearthStore, port: Int, listenHost: String = "0.0.0.0", options: Options, isTerminal: Bool,
                write: @escaping @Sendable (String) -> Void) {
        self.store = store
        self.port = port
        self.listenHost = listenHost
        self.options = options
        self.isTerminal = isTerminal
        self.write = write
    }

    /// Who the code is for, from the options; a household with nobody in it
    /// gets its first admin.
    func invitee() async throws -> PairingInvitee {
        switch (options.person, options.newPerson) {
        case (let name?, nil):
            guard let person = try await store.person(named: name) else {
                throw HearthError.notFound(what: "Nobody called \(name)")
            }
            return .person(person.id)
        case (nil, let name?):
            guard let role = options.role else { throw HearthError.invalid(fields: ["--role": "is needed with --new-person (senior, caregiver or admin)"]) }
            return .newPerson(name: name, role: role)
        case (nil, nil):
            if try await store.people().isEmpty { return .newPerson(name: "Admin", role: .admin) }
            throw HearthError.invalid(fields: ["--person": "or --new-person NAME --role ROLE says who the device is for"])
        case (_?, _?):
            throw HearthError.invalid(fields: ["--person": "and --new-person cannot both be given"])
        }
    }

    /// The host a phone on the household network reaches the hub by: the
    /// address it listens on, or its LAN address when it listens on all.
    static func reachableHost(listeningOn listenHost: String) -> String {
        let listensEverywhere = listenHost == "0.0.0.0" || listenHost == "::"
        return (listensEverywhere ? LANAddress.current() : listenHost) ?? "localhost"
    }

    /// The URL the QR code holds. The secret is in the fragment, which a
    /// browser never sends to a server, so it cannot end up in a log.
    static func url(host: String, port: Int, secret: String) -> String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "http://\(shownHost):\(port)/pair#\(secret)"
    }

    public func run(pollEvery interval: Duration = .milliseconds(500)) async throws -> Outcome {
        let invitation = try await store.createPairing(
            for: try await invitee(), deviceName: options.deviceName, lifetime: options.lifetime, by: "cli",
            maker: .hubTerminal)
        let listensEverywhere = listenHost == "0.0.0.0" || listenHost == "::"
        let host = options.urlHost ?? Self.reachableHost(listeningOn: listenHost)
        let url = Self.url(host: host, port: port, secret: invitation.code.secret)
        let code = try QRCode(encoding: url)
        var screen = options.ascii ? TerminalQR.ascii(code) : TerminalQR.halfBlocks(code)
        // Four lines under the code, so all of it fits an 80×24 terminal.
        screen += "Scan it, or open: \(url)\n"
        if options.urlHost == nil, listensEverywhere, let name = LANAddress.hostName() {
            screen += "            or: \(Self.url(host: name + ".local", port: port, secret: invitation.code.secret))\n"
        }
        screen += "Code to type: \(invitation.code.displayedShortCode)   For: \(invitation.personName) (\(invitation.role.rawValue))\n"
        write(screen)

        while true {
            switch try await store.pairingStatus(id: invitation.id) {
            case .paired(let deviceName, let personName, let role):
                if isTerminal { write("\r\u{1B}[K") }
                let line = "Paired: \(deviceName) (\(personName), \(role.rawValue))"
                write(line + "\n")
                return .paired(line)
            case .expired, .burned:
                if isTerminal { write("\r\u{1B}[K") }
                write("Expired\n")
                return .expired
            case .waiting:
                if isTerminal {
                    let left = max(0, Int(invitation.expiresAt.timeIntervalSinceNow.rounded()))
                    write(String(format: "\r\u{1B}[KWaiting for the device… expires in %d:%02d", left / 60, left % 60))
                }
                try await Task.sleep(for: interval)
            }
        }
    }
}
