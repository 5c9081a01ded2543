import Foundation
import HearthCore
import HearthStore
import Logging
import ServiceLifecycle

/// Sends every newly raised alert of a kind that has a webhook to it, as a
/// JSON POST, retrying with growing pauses when the receiver is away (Home
/// Assistant restarting, the ntfy box unplugged). Runs only when at least
/// one webhook is configured; otherwise nothing ever leaves the hub.
struct WebhookService: Service {
    let store: HearthStore
    let targets: [CareAlert.Kind: WebhookTarget]
    let board: WebhookBoard
    let logger: Logger
    var sender = WebhookSender()
    /// Pauses before each retry; after the last the delivery is given up
    /// (about 15 minutes in all) and stays visible in health.
    var retryDelays: [Duration] = [1, 2, 4, 8, 16, 32, 64, 128, 256, 300].map { .seconds($0) }
    /// Send alerts raised after this change-log position; nil is "from now".
    var startAfter: Int64?

    func run() async throws {
        var cursor: Int64
        if let startAfter { cursor = startAfter } else { cursor = try await store.latestSeq() }
        await withDiscardingTaskGroup { group in
            while !Task.isCancelled, !Task.isShuttingDownGracefully {
                do {
                    let subscription = try await store.subscribe(after: cursor) { $0.entity == .alert && $0.op == .create }
                    for try await change in subscription.cancelOnGracefulShutdown() {
                        cursor = change.seq
                        guard let (kind, target, body) = await delivery(for: change) else { continue }
                        board.queued()
                        group.addTask { await deliver(body, kind: kind, to: target) }
                    }
                    break // shutting down, or the log closed with the hub
                } catch {
                    // Fell behind or the database was busy: pick up from the
                    // last alert seen, so none is skipped.
                    logger.warning("webhook listener restarting", metadata: ["error": "\(error)"])
                    try? await Task.sleep(for: .seconds(1))
                }
            }
            // Pending retries end with the hub; they stay failed in the log.
            group.cancelAll()
        }
    }

    /// The kind, address and body for an alert change, or nil when its kind has no webhook.
    func delivery(for change: Change) async -> (CareAlert.Kind, WebhookTarget, [UInt8])? {
        guard case .object(let alert) = change.payload, case .string(let kindText)? = alert["kind"],
              let kind = CareAlert.Kind(rawValue: kindText), let target = targets[kind] else { return nil }
        let person = await named(alert["personId"]) { try await store.person(id: $0)?.name }
        let medication = await named(alert["medicationId"]) { try await store.medication(id: $0)?.name }
        let message = WebhookMessage(kind: kind, personName: person?.name, medicationName: medication?.name)
        let body: JSONValue = [
            "title": .string(message.title),
            "message": .string(message.text),
            "kind": .string(kind.rawValue),
            "person": person.map { ["id": .string($0.id), "name": .string($0.name)] } ?? .null,
            "medication": medication.map { ["id": .string($0.id), "name": .string($0.name)] } ?? .null,
            "alert": change.payload,
        ]
        guard let bytes = try? JSONText.bytes(of: body) else { return nil }
        return (kind, target, bytes)
    }

    private func named(_ id: JSONValue?, _ lookup: (UUID) async throws -> String?) async -> (id: String, name: String)? {
        guard case .string(let text)? = id, let uuid = UUID(text: text), let name = try? await lookup(uuid) else { return nil }
        return (text, name)
    }

    func deliver(_ body: [UInt8], kind: CareAlert.Kind, to target: WebhookTarget) async {
        var attempt = 0
        while true {
            attempt += 1
            let problem: String
            var detail: String?
            do {
                let status = try await sender.post(body, to: target)
                if (200..<300).contains(status) {
                    board.delivered(kind)
                    logger.info("webhook delivered", metadata: ["kind": "\(kind.rawValue)", "attempt": "\(attempt)"])
                    return
                }
                problem = "the receiver answered HTTP \(status)"
            } catch let error as WebhookDeliveryError {
                (problem, detail) = (error.description, error.detail)
            } catch {
                (problem, detail) = ("the delivery failed", "\(error)")
            }
            let retrying = attempt <= retryDelays.count && !Task.isCancelled
            board.failed(kind, attempts: attempt, error: problem, at: store.currentTime(), retrying: retrying)
            logger.warning("webhook failed", metadata: [
                "kind": "\(kind.rawValue)", "attempt": "\(attempt)", "error": "\(detail ?? problem)", "retrying": "\(retrying)",
            ])
            guard retrying else { return }
            do {
                try await Task.sleep(for: retryDelays[attempt - 1])
            } catch {
                board.failed(kind, attempts: attempt, error: problem, at: store.currentTime(), retrying: false)
                return
            }
        }
    }
}
