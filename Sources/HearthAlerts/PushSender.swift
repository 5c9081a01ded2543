import CCurl
import Foundation
import HearthCore
import HearthDigest

/// Why a push did not go, in a few words for health and the delivery.
public enum PushProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// DNS, TLS, no route, no answer in time: the Internet or the server is away.
    case unreachable(String)
    /// The server answered with this status (429 too many, 5xx, a refusal).
    case refused(status: Int)

    public var description: String {
        switch self {
        case .unreachable(let why): "the push server cannot be reached: \(why)"
        case .refused(let status): "the push server answered \(status)"
        }
    }

    /// Worth trying again later: anything but a request the server will never take.
    public var isPassing: Bool {
        switch self {
        case .unreachable: true
        case .refused(let status): status == 429 || status >= 500 || status == 408
        }
    }
}

/// Publishes to an ntfy server with libcurl (the system's TLS and
/// certificates), one request at a time on a thread of its own so a slow
/// server never holds up the hub's event loops. What it sends is ntfy's JSON
/// publish (`POST <server>/` with `topic`, `title`, `message`, `priority`,
/// `tags`, `actions`), which carries Polish letters as they are, where
/// headers would need encoding; and, for the phones at home, ntfy's poll
/// request (`POST <server>/<sha256 of the topic's URL>`, `X-Poll-ID`), as a
/// self-hosted ntfy server with `upstream-base-url` sends it: the iOS app is
/// woken by it and fetches the message from the hub.
public struct PushSender: Sendable {
    public let server: String
    /// Longer than a healthy server takes; a hung one is given up on.
    var timeout: Duration = .seconds(10)

    public init(server: String) {
        self.server = server
    }

    /// One notification on `topic`.
    public func publish(_ notification: PushNotification, topic: String) async throws(PushProblem) {
        var fields: [String: JSONValue] = [
            "topic": .string(topic), "title": .string(notification.title), "message": .string(notification.message),
            "priority": .number(Double(notification.priority)),
        ]
        if !notification.tags.isEmpty { fields["tags"] = .array(notification.tags.map(JSONValue.string)) }
        if let call = notification.call {
            let action: JSONValue = .object(["action": .string("view"), "label": .string(call.label), "url": .string(call.url),
                                             "clear": .bool(true)])
            fields["actions"] = .array([action])
        }
        let body = (try? JSONValue.object(fields).jsonText()) ?? "{}"
        try await post(url: server + "/", body: Array(body.utf8), headers: ["Content-Type: application/json"])
    }

    /// Wakes the iOS app for a message on the hub's own ntfy topic at
    /// `topicURL` (`http://192.168.1.20:8080/ntfy/sos`): the server sees
    /// only a hash and the message's id, never the message.
    public func pollRequest(topicURL: String, messageId: String) async throws(PushProblem) {
        try await post(url: "\(server)/\(Self.pollTopic(topicURL))", body: [], headers: ["X-Poll-ID: \(messageId)"])
    }

    /// The upstream topic of a topic URL: its SHA-256 in hex, as ntfy's server computes it.
    public static func pollTopic(_ topicURL: String) -> String {
        SHA256.hash(topicURL.utf8).map { String(format: "%02x", $0) }.joined()
    }

    func post(url: String, body: [UInt8], headers: [String]) async throws(PushProblem) {
        let timeoutMs = Int(timeout.components.seconds * 1000)
        let outcome: Result<Int, PushProblem> = await withCheckedContinuation { continuation in
            // libcurl's easy interface blocks: a thread of its own, not the cooperative pool.
            Thread.detachNewThread {
                continuation.resume(returning: CurlRequest.post(url: url, body: body, headers: headers, timeoutMs: timeoutMs))
            }
        }
        let status = try outcome.get()
        guard (200..<300).contains(status) else { throw .refused(status: status) }
    }
}

/// What a push says, decided by `AlertWording.push`.
public struct PushNotification: Sendable, Equatable {
    public struct Call: Sendable, Equatable {
        public var label: String
        public var url: String
    }

    public var title: String
    public var message: String
    /// ntfy's 1…5, as on the LAN (an SOS 5, a missed dose 4).
    public var priority: Int
    public var tags: [String]
    public var call: Call?
}

/// One blocking POST with libcurl.
enum CurlRequest {
    static func post(url: String, body: [UInt8], headers: [String], timeoutMs: Int) -> Result<Int, PushProblem> {
        guard let library = CurlLibrary.shared else { return .failure(.unreachable(CurlLibrary.missing)) }
        guard let curl = library.easyInit() else { return .failure(.unreachable("libcurl could not start")) }
        defer { library.easyCleanup(curl) }
        var list: UnsafeMutablePointer<curl_slist>?
        for header in headers + ["User-Agent: Hearth/\(HearthVersion.current)", "Expect:"] {
            list = library.slistAppend(list, header)
        }
        defer { library.slistFreeAll(list) }
        let set = library.setopt
        var errorText = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        let code: CURLcode = errorText.withUnsafeMutableBufferPointer { errorBuffer in
            body.withUnsafeBufferPointer { bytes in
                _ = hearth_curl_set_string(set, curl, CURLOPT_URL, url)
                // Only the web's two schemes, never a redirect elsewhere, never a signal (threads).
                _ = hearth_curl_set_string(set, curl, CURLOPT_PROTOCOLS_STR, "http,https")
                _ = hearth_curl_set_long(set, curl, CURLOPT_FOLLOWLOCATION, 0)
                _ = hearth_curl_set_long(set, curl, CURLOPT_NOSIGNAL, 1)
                _ = hearth_curl_set_long(set, curl, CURLOPT_TIMEOUT_MS, timeoutMs)
                _ = hearth_curl_set_long(set, curl, CURLOPT_CONNECTTIMEOUT_MS, min(timeoutMs, 5000))
                _ = hearth_curl_set_long(set, curl, CURLOPT_POST, 1)
                _ = hearth_curl_set_long(set, curl, CURLOPT_POSTFIELDSIZE, bytes.count)
                _ = bytes.baseAddress.map { address in
                    address.withMemoryRebound(to: CChar.self, capacity: bytes.count) { hearth_curl_set_string(set, curl, CURLOPT_COPYPOSTFIELDS, $0) }
                } ?? hearth_curl_set_string(set, curl, CURLOPT_COPYPOSTFIELDS, "")
                _ = hearth_curl_set_list(set, curl, CURLOPT_HTTPHEADER, list)
                _ = hearth_curl_ignore_response_body(set, curl)
                _ = hearth_curl_set_string(set, curl, CURLOPT_ERRORBUFFER, UnsafePointer(errorBuffer.baseAddress!))
                return library.easyPerform(curl)
            }
        }
        guard code == CURLE_OK else {
            let said = String(decoding: errorText.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return .failure(.unreachable(said.isEmpty ? String(cString: library.easyStrerror(code)) : said))
        }
        var status = 0
        _ = hearth_curl_response_code(library.getinfo, curl, &status)
        return .success(status)
    }
}
