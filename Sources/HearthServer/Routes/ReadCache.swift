import Foundation
import HearthCore
import HearthStore
import Hummingbird
import NIOCore

/// Care lists as last written out, so that a page polling Today or a wall
/// tablet reloading the medication list costs a lookup, not a database read
/// and a JSON rendering.
///
/// An answer is reused only while nothing in the household has changed: it
/// is kept with the change log's `seq` as published when its reading began,
/// and every write appends to that log and publishes after it commits. A
/// reading that began before a commit is therefore kept under the older
/// `seq` and never served after the publish. Answers that depend on the time
/// of day (a dose turning from "upcoming" to "due", the date rolling over)
/// also carry the moment they stop being true. The key is the person asking
/// together with whom they look after, so one person's answer never reaches
/// another.
final class ReadCache: Sendable {
    struct Key: Hashable, Sendable {
        var actor: PermissionPolicy.Actor
        /// Path and query, exactly as sent.
        var uri: String
    }

    private struct Answer {
        var body: ByteBuffer
        var validUntil: Date
    }

    private struct State {
        /// The `seq` every kept answer was read at; a newer one empties the cache.
        var seq: Int64 = -1
        var answers: [Key: Answer] = [:]
    }

    /// Enough for every device of a large household and each of its pages;
    /// past it, the cache starts over rather than tracking use.
    static let capacity = 512

    private let hub: ChangeHub
    private let state = Locked(State())

    init(hub: ChangeHub) {
        self.hub = hub
    }

    /// The kept answer for `key`, or the one `read` gives (kept for next
    /// time). `read` returns the JSON and when it stops being true.
    func response(
        for key: Key, at moment: Date,
        read: () async throws -> (json: JSONValue, validUntil: Date)
    ) async throws -> Response {
        Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
                 body: .init(byteBuffer: try await body(for: key, at: moment, read: read)))
    }

    /// The JSON text of `response`.
    func body(for key: Key, at moment: Date, read: () async throws -> (json: JSONValue, validUntil: Date)) async throws -> ByteBuffer {
        // Read before the database is, so an answer never outlives a commit it missed.
        let seq = hub.lastPublished
        if let body = answer(for: key, seq: seq, at: moment) { return body }
        let (json, validUntil) = try await read()
        let body = ByteBuffer(bytes: try JSONText.bytes(of: json))
        keep(Answer(body: body, validUntil: validUntil), for: key, seq: seq)
        return body
    }

    private func answer(for key: Key, seq: Int64, at moment: Date) -> ByteBuffer? {
        state.withLock { state in
            guard state.seq == seq, let answer = state.answers[key], moment < answer.validUntil else { return nil }
            return answer.body
        }
    }

    private func keep(_ answer: Answer, for key: Key, seq: Int64) {
        state.withLock { state in
            if seq > state.seq { state = State(seq: seq) }
            guard seq == state.seq else { return }
            if state.answers.count >= Self.capacity { state.answers.removeAll(keepingCapacity: true) }
            state.answers[key] = answer
        }
    }
}
