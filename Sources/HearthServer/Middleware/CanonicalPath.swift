import HTTPTypes
import Hummingbird

/// The hub's routes, answering every request under its path's one spelling.
///
/// The router drops empty segments, so `//api/v1/household` reached the
/// household's route while the pairing middleware, comparing the raw path,
/// saw no `/api/` and let it through without a token. Hummingbird picks the
/// route before any router middleware runs, so the path is put right here,
/// before the router: every check (which addresses are public, which are
/// the web UI's, which route answers) then sees one path.
public struct HearthRouter: HTTPResponderBuilder {
    /// The routes and their middleware.
    public let router: Router<HearthRequestContext>
    /// The API document's methods for each path, for 405 and `Allow`.
    let documented: DocumentedMethods?

    public var routes: [Router<HearthRequestContext>.RouteDescription] { router.routes }

    public func buildResponder() -> CanonicalPathResponder<RouterResponder<HearthRequestContext>> {
        CanonicalPathResponder(next: router.buildResponder(), documented: documented)
    }
}

/// Hands the request on with its path in one spelling (`CanonicalPath`),
/// unless the API document describes that path without this method: then
/// 405 with `Allow` (the router, which has no such answer, said 404; its
/// middlewares run only for a route it found, so this is done here).
public struct CanonicalPathResponder<Next: HTTPResponder>: HTTPResponder {
    public typealias Context = Next.Context
    let next: Next
    let documented: DocumentedMethods?

    public func respond(to request: Request, context: Context) async throws -> Response {
        let request = CanonicalPath.request(request)
        if let refusal = documented.flatMap({ MethodNotAllowed.refusal(of: request, documented: $0) }) { return refusal }
        return try await next.respond(to: request, context: context)
    }
}

/// A path's one spelling, normalized as RFC 3986 section 6 says, plus `%2F`:
/// - percent-encoded unreserved characters and `/` are decoded
///   (`/%61pi%2Fv1` is `/api/v1`); other escapes stay as they are;
/// - `.` and `..` segments are removed (`/./api/../api/v1` is `/api/v1`),
///   never climbing above the root;
/// - empty segments are dropped, so `//` and a trailing `/` go.
/// The query is left as it was.
enum CanonicalPath {
    /// The request as it is when its path is already canonical; else the
    /// same request (head, body) under the canonical path.
    static func request(_ request: Request) -> Request {
        let (path, query) = split(request.head.path ?? "/")
        let canonical = canonical(path)
        guard canonical != path else { return request }
        var head = request.head
        head.path = canonical + query
        return Request(head: head, body: request.body)
    }

    /// The path and the query (with its `?`, or empty).
    static func split(_ target: String) -> (path: String, query: String) {
        guard let mark = target.firstIndex(of: "?") else { return (target, "") }
        return (String(target[..<mark]), String(target[mark...]))
    }

    static func canonical(_ path: String) -> String {
        var segments: [Substring] = []
        for segment in decodingUnreserved(path).split(separator: "/", omittingEmptySubsequences: true) {
            switch segment {
            case ".": continue
            case "..": _ = segments.popLast()
            default: segments.append(segment)
            }
        }
        return "/" + segments.joined(separator: "/")
    }

    /// Decodes `%XX` where XX is an unreserved character or `/`.
    static func decodingUnreserved(_ path: String) -> String {
        guard path.contains("%") else { return path }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(path.utf8.count)
        var rest = path.utf8[...]
        while let byte = rest.first {
            rest = rest.dropFirst()
            if byte == UInt8(ascii: "%"), rest.count >= 2,
               let high = hexValue(rest[rest.startIndex]), let low = hexValue(rest[rest.index(after: rest.startIndex)]) {
                let decoded = high << 4 | low
                if isUnreserved(decoded) || decoded == UInt8(ascii: "/") {
                    bytes.append(decoded)
                    rest = rest.dropFirst(2)
                    continue
                }
            }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
