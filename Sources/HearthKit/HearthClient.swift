import Foundation
import HearthCore
import HearthSocketClient
import Logging

/// What one sync did.
public struct SyncReport: Sendable, Hashable {
    /// Round trips made (a push carries at most 500 changes, a pull page 500 entities).
    public var rounds = 0
    /// Changes pushed from the outbox.
    public var pushed = 0
    /// Entities pulled from the hub.
    public var pulled = 0
    /// Response bytes received from the hub, as sent (gzipped, when it was).
    public var bytesReceived = 0
    /// Changes the hub refused as they stood, now set aside (`HearthMirror.setAsideChanges()`).
    public var setAside = 0
    /// Whether the mirror started from a snapshot: its first sync, or it had
    /// been away longer than the hub keeps its log.
    public var fromSnapshot = false
}

/// A household app's connection to its hub: keeps `mirror` in step with the
/// hub, pushing what was changed on this device and pulling what changed
/// elsewhere, whenever the network allows.
///
/// ```swift
/// let mirror = try HearthMirror(path: "hearth.sqlite")
/// let client = HearthClient(baseURL: hubURL, token: token, store: mirror)
/// await client.start()
/// for try await doses in mirror.observeToday() { show(doses) }
/// ```
///
/// Edits go to the mirror (`mirror.record(doseKey:…)`, `mirror.setNoteText(…)`),
/// then `client.changed()` — or use the client's forwarding methods, which
/// do both. The sync loop retries with backoff while the hub is away and
/// resumes after a crash: changes sent without an answer are sent again,
/// which the hub applies once (each carries an `opId`).
public actor HearthClient {
    public nonisolated let mirror: HearthMirror
    let connection: HubConnection
    let logger: Logger
    /// The most changes one push carries.
    static let pushLimit = 500

    private var loop: Task<Void, Never>?
    private var live: Task<Void, Never>?
    private var running: Task<SyncReport, any Error>?
    private var waiter: CheckedContinuation<Void, Never>?
    private var wakeRequested = false
    /// Why the last sync failed; nil after one succeeds.
    public private(set) var lastError: HearthKitError?
    public private(set) var lastSyncedAt: Date?

    public init(baseURL: URL, token: String, store: HearthMirror, logger: Logger = Logger(label: "hearthkit")) {
        self.mirror = store
        self.connection = HubConnection(baseURL: baseURL, token: token)
        self.logger = logger
    }

    // MARK: Syncing

    /// Learns which device and person this is and the household's time zone
    /// (once, while on the home network); `sync()` does it when needed.
    public func connect() async throws {
        let (devices, _) = try await connection.send("GET", "/api/v1/devices")
        guard let me = devices.array?.first(where: { $0.field("current") == .bool(true) }),
              let deviceId = me.field("id")?.string, let personId = me.field("personId")?.string else {
            throw HearthKitError.refused(status: 401, type: "unpaired", detail: "This token is not a paired device's")
        }
        let (household, _) = try await connection.send("GET", "/api/v1/household")
        try await mirror.setIdentity(deviceId: deviceId, personId: personId, timeZone: household.field("timeZone")?.string)
    }

    /// Pushes everything waiting and pulls until the hub has nothing more,
    /// one sync at a time (a second call waits for the first, then runs).
    @discardableResult
    public func sync() async throws -> SyncReport {
        while let earlier = running { _ = try? await earlier.value }
        let task = Task { try await self.syncRounds() }
        running = task
        do {
            let report = try await task.value
            running = nil
            lastError = nil
            lastSyncedAt = Date()
            return report
        } catch {
            running = nil
            lastError = error as? HearthKitError ?? .mirror("\(error)")
            throw error
        }
    }

    private func syncRounds() async throws -> SyncReport {
        if try await mirror.identity() == nil { try await connect() }
        var report = SyncReport()
        if try await !mirror.hasSynced() {
            // An empty mirror takes the latest state of everything at once,
            // not the log's history of how it got there.
            try await takeSnapshot(into: &report)
        }
        var more = true
        while more {
            let (entries, cursor) = try await mirror.takeOutbox(limit: Self.pushLimit)
            let body: JSONValue = ["since": .number(Double(cursor)), "changes": .array(entries.map(\.change))]
            let response: JSONValue, bytes: Int
            do {
                (response, bytes) = try await connection.send("POST", "/api/v1/sync", body: body)
            } catch HearthKitError.refused(410, _, _) {
                // Away longer than the hub keeps its log: start again from a
                // snapshot, then push what waits.
                try await takeSnapshot(into: &report)
                continue
            } catch HearthKitError.refused(let status, _, _) where Self.refusesAsItStands(status) && !entries.isEmpty {
                // The hub refuses the push as a whole: sent again, it would be
                // refused forever and hold back everything queued after it.
                try await pushOneByOne(entries, into: &report)
                continue
            }
            let whoIMaySeeChanged = try await mirror.apply(response: response, sent: entries)
            report.rounds += 1
            report.pushed += entries.count
            report.pulled += response.field("changes")?.array?.count ?? 0
            report.bytesReceived += bytes
            more = response.field("more") == .bool(true) || entries.count == Self.pushLimit
            if whoIMaySeeChanged {
                // Unlinked, a senior's medicines and notes must not stay on
                // this phone; linked, hers arrive whole, not only what changes next.
                try await takeSnapshot(into: &report)
                more = true
            }
        }
        return report
    }

    /// A refusal that sending the same push again cannot change: malformed
    /// (400, 422), an `opId` used for other content (409), too large (413).
    static func refusesAsItStands(_ status: Int) -> Bool {
        [400, 409, 413, 415, 422].contains(status)
    }

    /// Sends a refused push's changes one at a time, so each that the hub
    /// takes gets through and each it refuses alone is set aside; then the
    /// copy is taken afresh from a snapshot, since what was set aside is
    /// still laid over it.
    private func pushOneByOne(_ entries: [OutboxEntry], into report: inout SyncReport) async throws {
        var setAside = 0
        for entry in entries {
            let body: JSONValue = ["since": .number(Double(try await mirror.cursor())), "changes": .array([entry.change])]
            do {
                let (response, bytes) = try await connection.send("POST", "/api/v1/sync", body: body)
                try await mirror.apply(response: response, sent: [entry])
                report.pushed += 1
                report.pulled += response.field("changes")?.array?.count ?? 0
                report.bytesReceived += bytes
            } catch HearthKitError.refused(let status, _, let detail) where Self.refusesAsItStands(status) {
                logger.warning("change set aside", metadata: ["opId": "\(entry.opId)", "entity": "\(entry.entity)", "reason": "\(detail)"])
                try await mirror.setAside(entry, reason: detail)
                setAside += 1
            }
            report.rounds += 1
        }
        report.setAside += setAside
        if setAside > 0 { try await takeSnapshot(into: &report) }
    }

    private func takeSnapshot(into report: inout SyncReport) async throws {
        let (snapshot, bytes) = try await connection.send("GET", "/api/v1/sync/snapshot")
        try await mirror.replace(withSnapshot: snapshot)
        report.fromSnapshot = true
        report.rounds += 1
        report.pulled += snapshot.field("entities")?.array?.count ?? 0
        report.bytesReceived += bytes
    }

    // MARK: The loop

    /// Syncs now and whenever something changes here or on the hub, retrying
    /// with backoff (1 s doubling to a minute) while the hub is away.
    public func start() {
        guard loop == nil else { return }
        loop = Task { await self.runLoop() }
        live = Task { await self.listen() }
    }

    /// Stops syncing; the mirror keeps working, and its outbox waits.
    public func stop() async {
        loop?.cancel()
        live?.cancel()
        wake()
        await loop?.value
        loop = nil
        live = nil
    }

    /// Tells the loop the mirror has new changes to push.
    public func changed() { wake() }

    private func runLoop() async {
        var delay = Duration.seconds(1)
        while !Task.isCancelled {
            var wait = Duration.seconds(60)
            do {
                try await sync()
                delay = .seconds(1)
            } catch {
                logger.info("sync failed; trying again", metadata: ["error": "\(error)", "in": "\(delay)"])
                wait = delay
                delay = min(delay * 2, .seconds(60))
            }
            await waitForWake(upTo: wait)
        }
    }

    private func wake() {
        if let waiter {
            self.waiter = nil
            waiter.resume()
        } else {
            wakeRequested = true
        }
    }

    private func waitForWake(upTo timeout: Duration) async {
        if wakeRequested || Task.isCancelled {
            wakeRequested = false
            return
        }
        let timer = Task {
            try? await Task.sleep(for: timeout)
            if !Task.isCancelled { self.wake() }
        }
        await withCheckedContinuation { waiter = $0 }
        timer.cancel()
        wakeRequested = false
    }

    /// Listens on `/api/v1/live`: every change there wakes the loop, so a
    /// sync follows at once. Reconnects with backoff.
    private func listen() async {
        var delay = Duration.seconds(1)
        while !Task.isCancelled {
            do {
                _ = try await HubWebSocket.connect(
                    url: connection.liveURL,
                    configuration: .init(maxFrameSize: 1 << 20, additionalHeaders: [.authorization: "Bearer \(connection.token)"]),
                    logger: logger
                ) { inbound, _, _ in
                    for try await _ in inbound.messages(maxSize: 1 << 20) {
                        if Task.isCancelled { break }
                        await self.heardOfChange()
                    }
                }
                delay = .seconds(1)
            } catch where !Task.isCancelled {
                logger.info("live stream lost", metadata: ["error": "\(error)"])
            } catch {}
            try? await Task.sleep(for: delay)
            delay = min(delay * 2, .seconds(60))
        }
    }

    private func heardOfChange() { wake() }

    // MARK: Edits (to the mirror, then the loop is told)

    public func record(doseKey: String, status: TodayDose.Status, takenAt: Date? = nil) async throws {
        try await mirror.record(doseKey: doseKey, status: status, takenAt: takenAt)
        wake()
    }

    public func updateMedication(id: UUID, _ changes: MedicationChanges) async throws {
        try await mirror.updateMedication(id: id, changes)
        wake()
    }

    @discardableResult
    public func createNote(title: String = "", text: String = "", shared: Bool = false) async throws -> UUID {
        let id = try await mirror.createNote(title: title, text: text, shared: shared)
        wake()
        return id
    }

    public func setNoteText(id: UUID, to text: String) async throws {
        try await mirror.setNoteText(id: id, to: text)
        wake()
    }

    public func editNoteText(id: UUID, at position: Int, deleting: Int = 0, inserting: String = "") async throws {
        try await mirror.editNoteText(id: id, at: position, deleting: deleting, inserting: inserting)
        wake()
    }

    public func updateNote(id: UUID, title: String? = nil, pinned: Bool? = nil, shared: Bool? = nil) async throws {
        try await mirror.updateNote(id: id, title: title, pinned: pinned, shared: shared)
        wake()
    }

    public func setNoteInTrash(id: UUID, _ inTrash: Bool) async throws {
        try await mirror.setNoteInTrash(id: id, inTrash)
        wake()
    }
}
