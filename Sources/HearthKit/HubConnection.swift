import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HearthCore

/// Requests to one hub with this device's token, JSON in and out.
struct HubConnection: Sendable {
    let baseURL: URL
    let token: String
    let session: URLSession

    init(baseURL: URL, token: String) {
        self.baseURL = baseURL
        self.token = token
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 30
        // The hub is on the home network: nothing to cache, no proxies.
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.connectionProxyDictionary = [:]
        session = URLSession(configuration: configuration)
    }

    /// Sends a request; a 2xx answer's JSON, or the hub's problem as an error.
    /// Also returns the body's size as sent (the benchmark reports it).
    func send(_ method: String, _ path: String, body: JSONValue? = nil) async throws -> (json: JSONValue, bytes: Int) {
        guard let url = URL(string: path, relativeTo: baseURL) else { throw HearthKitError.invalid("Not a hub path: \(path)") }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        // A fresh connection per request: an HTTP stack that finds a reused
        // connection closed may send a push again on its own, half-written.
        request.setValue("close", forHTTPHeaderField: "Connection")
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(try JSONText.bytes(of: body))
        }
        let data: Data, response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            throw HearthKitError.unreachable(error.localizedDescription)
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        let json = data.isEmpty ? JSONValue.null : ((try? JSONText.value(from: data)) ?? .null)
        guard (200..<300).contains(status) else {
            var detail = json.field("detail")?.string ?? json.field("title")?.string ?? "HTTP \(status)"
            // A 422 names each wrong field: keep them, an app shows what was refused.
            if case .object(let errors)? = json.field("errors"), !errors.isEmpty {
                detail += " (" + errors.keys.sorted().map { "\($0): \(errors[$0]?.string ?? "")" }.joined(separator: "; ") + ")"
            }
            throw HearthKitError.refused(status: status, type: json.field("type")?.string ?? "about:blank", detail: detail)
        }
        return (json, Self.bytesSent(by: response, decoded: data.count))
    }

    /// The body's size as the hub sent it. The HTTP stack undoes gzip on
    /// its own (it asks for it by default), so the length is read from the
    /// headers when the body came compressed.
    static func bytesSent(by response: URLResponse, decoded: Int) -> Int {
        guard let http = response as? HTTPURLResponse,
              http.value(forHTTPHeaderField: "Content-Encoding") != nil,
              let length = http.value(forHTTPHeaderField: "Content-Length").flatMap(Int.init) else { return decoded }
        return length
    }

    /// `ws://…/api/v1/live` for this hub.
    var liveURL: String {
        var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: true) ?? URLComponents()
        components.scheme = components.scheme == "https" ? "wss" : "ws"
        components.path = "/api/v1/live"
        return components.string ?? "ws://localhost/api/v1/live"
    }
}
