/// Which methods the OpenAPI document (`Web/openapi.yaml`, the one served
/// at `/api/v1/openapi.yaml`) lists for each path: what `Allow` says when a
/// request uses another. Read from the document itself, so the two cannot
/// drift; only its `paths:` keys (two spaces in) and their method keys
/// (four spaces in) are read.
struct DocumentedMethods: Sendable {
    struct Template: Sendable {
        /// Its segments; nil stands for a `{parameter}`.
        var segments: [String?]
        var methods: Set<String>

        var literals: Int { segments.count { $0 != nil } }
    }

    static let methodKeys: Set<String> = ["get", "put", "post", "patch", "delete", "head", "options"]

    let templates: [Template]

    init(openAPI document: String) {
        var templates: [Template] = []
        var inPaths = false
        for line in document.split(separator: "\n") where !line.allSatisfy(\.isWhitespace) {
            if !line.hasPrefix(" ") {
                inPaths = line.hasPrefix("paths:")
                continue
            }
            guard inPaths else { continue }
            if line.hasPrefix("  /"), !line.hasPrefix("   "), line.hasSuffix(":") {
                let path = line.dropFirst(2).dropLast()
                let segments = path.split(separator: "/").map { $0.hasPrefix("{") ? nil : String($0) }
                templates.append(Template(segments: segments, methods: []))
            } else if line.hasPrefix("    "), !line.hasPrefix("     "), line.hasSuffix(":"), !templates.isEmpty {
                let key = String(line.dropFirst(4).dropLast())
                if Self.methodKeys.contains(key) { templates[templates.count - 1].methods.insert(key.uppercased()) }
            }
        }
        self.templates = templates
    }

    /// The methods documented for `path`, or nil when the document does not
    /// describe it. Where a literal segment and a parameter both fit
    /// (`/alert-apps/test`, `/alert-apps/{id}`), the path with more literal
    /// segments is the one meant, as OpenAPI says.
    func methods(for path: String) -> Set<String>? {
        let segments = path.split(separator: "/")
        let matching = templates.filter { template in
            template.segments.count == segments.count
                && zip(template.segments, segments).allSatisfy { literal, segment in literal.map { $0 == segment } ?? true }
        }
        return matching.max { $0.literals < $1.literals }?.methods
    }
}
