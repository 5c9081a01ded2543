import Foundation
import HearthAlerts
import HearthCore
import HearthStore
import HearthTestSupport

/// A household on a real SQLite file with two seniors and their caregivers:
/// Anna looks after Zosia, Piotr after Jan only; alert apps for each.
final class AlertHome {
    private let temporary: TemporaryDirectory
    let store: HearthStore
    let streams: AlertStreams
    let zosia: Person
    let jan: Person
    let anna: Person
    let piotr: Person

    /// `clock`: the hub's time, when a test moves it; else the real time.
    init(outboxLimit: Int = 256, keepalive: Duration = .seconds(45), clock: Locked<Date>? = nil) async throws {
        temporary = try TemporaryDirectory(inMemory: true)
        let now: (@Sendable () -> Date)? = if let clock { { clock.withLock { $0 } } } else { nil }
        store = try HearthStore(directory: temporary.url, now: now)
        try await store.ensureHousehold(name: "Home", timeZone: "Europe/Warsaw")
        zosia = try await store.addPerson(name: "Zosia", role: .senior, as: .hubTerminal, by: "test")
        jan = try await store.addPerson(name: "Jan", role: .senior, as: .hubTerminal, by: "test")
        anna = try await store.addPerson(name: "Anna", role: .caregiver, as: .hubTerminal, by: "test")
        piotr = try await store.addPerson(name: "Piotr", role: .caregiver, as: .hubTerminal, by: "test")
        try await store.link(caregiver: anna.id, senior: zosia.id, as: .hubTerminal, by: "test")
        try await store.link(caregiver: piotr.id, senior: jan.id, as: .hubTerminal, by: "test")
        streams = AlertStreams(store: store, keepalive: keepalive, outboxLimit: outboxLimit)
    }

    deinit { try? store.close() }

    func actor(_ person: Person) async throws -> PermissionPolicy.Actor {
        let cares: Set<UUID> = person.id == anna.id ? [zosia.id] : person.id == piotr.id ? [jan.id] : []
        return PermissionPolicy.Actor(personId: person.id, role: person.role, caresFor: cares)
    }

    /// A new credential for `person`, signed in as an app would.
    func app(for person: Person, name: String = "phone") async throws -> (AlertApp, SignedInAlertApp) {
        let (app, password) = try await store.createAlertApp(name: name, as: try await actor(person), by: "test")
        guard let signedIn = try await store.alertAppSignIn(username: app.username, password: password) else {
            throw CocoaError(.userCancelled)
        }
        return (app, signedIn)
    }

    func reader(for person: Person, topics: [AlertTopic] = [.alerts]) async throws -> AlertReader {
        AlertReader(app: try await app(for: person).1, topics: topics, origin: "http://192.0.2.1:8080")
    }
}

/// Reads a stream in the background, so a test can wait for what it expects.
final class StreamRecorder: Sendable {
    let events = Locked([NtfyEvent]())
    let ended = Locked(false)
    private let task: Task<Void, Never>

    init(_ stream: AlertStream) {
        let events = self.events
        let ended = self.ended
        task = Task {
            for await event in stream { events.withLock { $0.append(event) } }
            ended.withLock { $0 = true }
        }
    }

    deinit { task.cancel() }

    var messages: [NtfyEvent] { events.withLock { $0.filter { $0.kind == .message || $0.kind == .clear } } }

    /// Waits up to `seconds` for `condition`; returns whether it held.
    func wait(seconds: Double = 5, until condition: (StreamRecorder) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if condition(self) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition(self)
    }
}
