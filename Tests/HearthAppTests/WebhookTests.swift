import Foundation
@testable import HearthApp
import HearthCore
import HearthStore
import Logging
import HearthTestSupport
import Testing

@Suite(.serialized) struct WebhookTests {
    /// A hub's store in a fresh directory with a senior, and a webhook
    /// service sending `kinds` to `address`, running until `body` returns.
    static func withService(
        sending kinds: [CareAlert.Kind], to address: String, retryDelays: [Duration],
        _ body: @Sendable (HearthStore, Person, WebhookBoard) async throws -> Void
    ) async throws {
        let directory = try TemporaryDirectory()
        let store = try HearthStore(directory: directory.url)
        defer { try? store.close() }
        _ = try await store.ensureHousehold(name: "Kowalscy", timeZone: "Europe/Warsaw")
        let babcia = try await store.addPerson(name: "Babcia", role: .senior, as: .hubTerminal, by: "test")
        let target = try WebhookTarget(address)
        let board = WebhookBoard(configured: kinds)
        let service = WebhookService(
            store: store, targets: Dictionary(uniqueKeysWithValues: kinds.map { ($0, target) }), board: board,
            logger: Logger(label: "test"), retryDelays: retryDelays, startAfter: try await store.latestSeq())
        let running = Task { try await service.run() }
        defer { running.cancel() }
        try await body(store, babcia, board)
    }

    @Test func anSOSReachesItsWebhookAfterTheReceiverFailsTwice() async throws {
        let receiver = try await WebhookReceiver(answers: [503, 500])
        defer { receiver.stop() }
        try await Self.withService(sending: [.sos], to: "http://127.0.0.1:\(receiver.port)/api/webhook/hearth-sos?token=abc",
                                   retryDelays: [.milliseconds(50), .milliseconds(50), .milliseconds(50)]) { store, babcia, board in
            let sos = try await store.raiseSOS(for: babcia.id, as: PermissionPolicy.Actor(personId: babcia.id, role: .senior), by: "test")
            // A clock alert has no webhook here, so it never leaves the hub.
            _ = try await store.compareClock(deviceTime: store.currentTime().addingTimeInterval(3600), by: "test")

            let requests = try await receiver.waitForRequests(3)
            try await Task.sleep(for: .milliseconds(300))
            expectEqual(receiver.requests.count, 3, "two refusals, then the delivery; nothing for the clock")
            for request in requests {
                expectEqual(request.method, "POST")
                expectEqual(request.uri, "/api/webhook/hearth-sos?token=abc")
                expectEqual(request.contentType, "application/json")
            }
            let body = try JSONValue(jsonText: String(decoding: try #require(requests.last).body, as: UTF8.self))
            guard case .object(let fields) = body, case .object(let alert)? = fields["alert"], case .object(let person)? = fields["person"] else {
                Issue.record("unexpected body \(body)")
                return
            }
            expectEqual(fields["kind"], "sos")
            expectEqual(fields["message"], "Babcia pressed SOS")
            expectEqual(alert["id"], .string(sos.id.uuidString.lowercased()))
            expectEqual(person["name"], "Babcia")

            let status = board.current
            expectEqual(status.configured, ["sos"])
            expectEqual(status.delivered, 1)
            expectEqual(status.pending, 0)
            #expect(status.failures.isEmpty, "a later success clears the kind's failure")
        }
    }

    @Test func aWebhookNobodyAnswersIsGivenUpAndShownInHealth() async throws {
        // A port that was just listening and is now closed: connection refused.
        let gone = try await WebhookReceiver(answers: [])
        let port = gone.port
        gone.stop()
        try await Task.sleep(for: .milliseconds(100))
        try await Self.withService(sending: [.sos], to: "http://127.0.0.1:\(port)/hook", retryDelays: [.milliseconds(20)]) { store, babcia, board in
            _ = try await store.raiseSOS(for: babcia.id, as: PermissionPolicy.Actor(personId: babcia.id, role: .senior), by: "test")
            let deadline = Date().addingTimeInterval(10)
            while board.current.failures.first?.retrying != false, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
            let status = board.current
            expectEqual(status.delivered, 0)
            expectEqual(status.pending, 0)
            expectEqual(status.failures.count, 1)
            let failure = try #require(status.failures.first)
            expectEqual(failure.kind, "sos")
            expectEqual(failure.attempts, 2, "the first try and one retry")
            expectEqual(failure.error, "could not connect to the receiver", "health names no address")
            expectEqual(failure.retrying, false)
        }
    }

    @Test func addressesAreCheckedWhenTheHubStarts() async throws {
        let target = try WebhookTarget("http://homeassistant.local:8123/api/webhook/hearth?x=1")
        expectEqual(target.host, "homeassistant.local")
        expectEqual(target.port, 8123)
        expectEqual(target.target, "/api/webhook/hearth?x=1")
        try expectEqual(WebhookTarget("http://192.168.1.20").target, "/")
        for bad in ["https://ntfy.local/hearth", "ftp://x/", "not an address", "http:///path", "http://user:secret@ha.local/"] {
            #expect(throws: WebhookTargetProblem.self, "\(bad)") { try WebhookTarget(bad) }
        }

        let directory = try TemporaryDirectory()
        let file = try HubConfigurationTests.yaml("webhooks:\n  sos: https://ntfy.local/hearth\n", in: directory)
        await #expect {
            try await HubConfiguration.load(flags: .init(configFile: file), environment: [:])
        } throws: { error in
            "\(error)".contains("webhooks.sos") && "\(error)".contains("http://")
        }
        let plain = try HubConfigurationTests.yaml("", in: directory)
        let fromEnvironment = try await HubConfiguration.load(
            flags: .init(configFile: plain), environment: ["HEARTH_WEBHOOKS_DOSE_MISSED": "http://ha.local:8123/api/webhook/missed"])
        expectEqual(fromEnvironment.webhooks[.doseMissed]?.port, 8123)
        #expect(fromEnvironment.webhooks[.sos] == nil)
        #expect(try await HubConfiguration.load(flags: .init(configFile: plain), environment: [:]).webhooks.isEmpty,
                "with none configured nothing leaves the hub")
    }
}
