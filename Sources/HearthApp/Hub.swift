import Foundation
import HearthCore
import HearthEditing
import HearthReminders
import HearthServer
import HearthStore
import Logging
import NIOCore
import ServiceLifecycle

/// The composition root: `build` opens the store and assembles every
/// service, `serve` runs them as one group until SIGTERM or SIGINT. Tests
/// that need the whole hub build it the same way (`AssembledHub`).
public enum Hub {
    /// Runs the hub until it is asked to stop. `onReady` gets the port actually
    /// listened on (useful with port 0).
    public static func serve(
        _ configuration: HubConfiguration,
        logger: Logger,
        offerFirstPairing: Bool = false,
        onReady: @escaping @Sendable (_ port: Int) async -> Void = { _ in }
    ) async throws {
        MemoryArenas.limit()
        let hub = try await build(configuration, logger: logger, offerFirstPairing: offerFirstPairing, onReady: onReady)
        do {
            try await hub.serviceGroup(logger: logger).run()
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            try? hub.close()
            throw HubError.addressInUse(host: configuration.host, port: configuration.port)
        } catch {
            try? hub.close()
            throw error
        }
        try hub.close()
        logger.info("hub stopped", metadata: [:])
    }

    /// Takes the data directory, opens the store and assembles every service
    /// as `configuration` says; nothing listens until the group runs.
    public static func build(
        _ configuration: HubConfiguration,
        logger: Logger,
        offerFirstPairing: Bool = false,
        onReady: @escaping @Sendable (_ port: Int) async -> Void = { _ in }
    ) async throws -> AssembledHub {
        let directory = URL(fileURLWithPath: configuration.dataDirectory, isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // Held until the assembled hub is closed (the process ends, at the latest).
        guard let lock = try DataDirectoryLock.acquire(directory: directory) else {
            throw HubError.alreadyServing(directory: directory.path)
        }
        let store: HearthStore
        do {
            store = try HearthStore(directory: directory)
        } catch {
            lock.release()
            throw error
        }
        DatabaseFileAccess.shareWithGroup(directory)
        do {
            let household = try await store.ensureHousehold(
                name: configuration.householdName, timeZone: configuration.householdTimeZone)
            logger.info("store opened", metadata: [
                "path": "\(directory.appendingPathComponent(HearthStore.fileName).path)",
                "household": "\(household.id.text)",
            ])
        } catch {
            try? store.close()
            lock.release()
            throw error
        }
        return HubAssembly(configuration: configuration, store: store, lock: lock, logger: logger,
                           offerFirstPairing: offerFirstPairing, onReady: onReady).assemble()
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
