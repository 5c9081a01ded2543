import Foundation
import HearthCore
import HearthStore

/// The pages open on paired devices right now (their live streams), by
/// person: the third way an alert reaches someone. Alerts themselves reach
/// a page as changes of the log; this is for what is not a change — the
/// Test button's message, which must show on the tester's open screens too.
public final class OpenPages: Sendable {
    /// Writes one text frame to the page's socket; false when it is gone.
    public typealias Send = @Sendable (String) async -> Bool

    private struct Page {
        let personId: UUID
        let deviceId: UUID
        let send: Send
    }
    private let pages = Locked([UUID: Page]())
    let store: HearthStore
    let board: DeliveryBoard

    public init(store: HearthStore, board: DeliveryBoard) {
        self.store = store
        self.board = board
    }

    /// Registers an open page; the returned key removes it.
    public func opened(person: UUID, device: UUID, send: @escaping Send) -> UUID {
        let key = UUID.random()
        pages.withLock { $0[key] = Page(personId: person, deviceId: device, send: send) }
        return key
    }

    public func closed(_ key: UUID) {
        _ = pages.withLock { $0.removeValue(forKey: key) }
    }

    public var openCount: Int { pages.withLock { $0.count } }

    /// Sends a test to each open page of `person`; returns the names of the
    /// devices it was written to (each recorded on the board under `messageId`).
    public func sendTest(to person: UUID, messageId: String, title: String, message: String) async -> [String] {
        let targets = pages.withLock { $0.values.filter { $0.personId == person } }
        guard !targets.isEmpty, let bytes = try? JSONText.bytes(of: [
            "type": "test", "id": .string(messageId), "title": .string(title), "message": .string(message),
        ]) else { return [] }
        let frame = String(decoding: bytes, as: UTF8.self)
        var shown: [String] = []
        for page in targets where await page.send(frame) {
            let recipient = "device:\(page.deviceId.text)"
            let name = (try? await store.recipientName(recipient)) ?? nil ?? "device"
            board.record(.init(channel: .page, recipient: recipient, recipientName: name, messageId: messageId, alertId: nil,
                               at: store.currentTime()))
            if !shown.contains(name) { shown.append(name) }
        }
        return shown
    }
}
