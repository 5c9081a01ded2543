import Foundation
import Hummingbird
import NIOCore

/// The web UI's files: compiled into the binary, or read from a directory
/// (`--web-root`) while developing the UI.
struct WebAssets: Sendable {
    struct File: Sendable {
        var bytes: ByteBuffer
        var contentType: String
        var etag: String
    }

    private enum Source: Sendable {
        case embedded([String: File])
        case directory(URL)
    }

    private let source: Source

    static func embedded() -> WebAssets {
        var files: [String: File] = [:]
        for (path, entry) in EmbeddedWebFiles.all {
            guard let data = Data(base64Encoded: entry.base64) else { continue }
            files[path] = File(bytes: ByteBuffer(bytes: data), contentType: contentType(for: path), etag: "\"\(entry.etag)\"")
        }
        return WebAssets(source: .embedded(files))
    }

    static func directory(_ root: URL) -> WebAssets {
        WebAssets(source: .directory(root.standardizedFileURL))
    }

    /// The file at a URL path such as `/app.js`, or nil.
    func file(at path: String) -> File? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        // Never leave the web root, and never serve the UI's own tests.
        if segments.contains(where: { $0 == ".." || $0.hasPrefix(".") }) || segments.first == "tests" {
            return nil
        }
        let normalized = "/" + segments.joined(separator: "/")
        switch source {
        case .embedded(let files):
            return files[normalized]
        case .directory(let root):
            let url = root.appending(path: String(normalized.dropFirst()))
            guard url.standardizedFileURL.path.hasPrefix(root.path + "/"),
                  let data = try? Data(contentsOf: url),
                  let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
            else { return nil }
            let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            return File(bytes: ByteBuffer(bytes: data), contentType: Self.contentType(for: normalized),
                        etag: "\"\(data.count)-\(Int(modified * 1000))\"")
        }
    }

    static func contentType(for path: String) -> String {
        switch path.split(separator: ".").last.map({ $0.lowercased() }) {
        case "html": "text/html; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "js", "mjs": "text/javascript; charset=utf-8"
        case "json": "application/json; charset=utf-8"
        case "webmanifest": "application/manifest+json"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "ico": "image/x-icon"
        case "txt": "text/plain; charset=utf-8"
        case "yaml", "yml": "application/yaml; charset=utf-8"
        case "woff2": "font/woff2"
        default: "application/octet-stream"
        }
    }
}
