import Foundation
import HearthCore

/// One line of an alert app's stream, as ntfy's subscribe API sends it
/// (docs.ntfy.sh, "Subscribe via API"): `open` first, `keepalive` now and
/// then, `message` for a notification and `message_clear` to take one away.
public struct NtfyEvent: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case open, keepalive, message
        case clear = "message_clear"
    }

    /// A button on the notification; `http` posts to `url` without opening anything.
    public struct Action: Sendable, Equatable {
        public var id: String
        public var label: String
        public var url: String
        /// Take the notification away once the hub answered 2xx.
        public var clear: Bool
    }

    public var id: String
    public var time: Date
    public var kind: Kind
    public var topic: String
    /// A later message with the same sequence id replaces the notification
    /// (or clears it): an alert's id.
    public var sequenceId: String?
    public var title: String?
    public var message: String?
    public var priority: Int?
    public var tags: [String] = []
    public var click: String?
    public var actions: [Action] = []

    public init(id: String, time: Date, kind: Kind, topic: String, sequenceId: String? = nil) {
        self.id = id
        self.time = time
        self.kind = kind
        self.topic = topic
        self.sequenceId = sequenceId
    }

    public var json: JSONValue {
        var fields: [String: JSONValue] = [
            "id": .string(id), "time": .number((time.timeIntervalSince1970).rounded(.down)), "event": .string(kind.rawValue),
            "topic": .string(topic),
        ]
        if let sequenceId { fields["sequence_id"] = .string(sequenceId) }
        if let title { fields["title"] = .string(title) }
        if let message { fields["message"] = .string(message) }
        if let priority { fields["priority"] = .number(Double(priority)) }
        if !tags.isEmpty { fields["tags"] = .array(tags.map(JSONValue.string)) }
        if let click { fields["click"] = .string(click) }
        if !actions.isEmpty {
            fields["actions"] = .array(actions.map { action in
                ["id": .string(action.id), "action": "http", "label": .string(action.label), "url": .string(action.url),
                 "method": "POST", "clear": .bool(action.clear)]
            })
        }
        return .object(fields)
    }

    /// The event as one line of JSON, without the newline.
    public func line() -> [UInt8] {
        // Every field is a string, a whole number or a list of them: nothing here can fail to encode.
        (try? JSONText.bytes(of: json)) ?? Array(#"{"event":"keepalive"}"#.utf8)
    }
}
