import Foundation
import Logging

/// One line per event on stdout: `time=… level=… event="…" key=value…`, so
/// journald and grep read it alike. Callers never pass tokens or note text.
public struct KeyValueLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    let label: String

    public init(label: String) {
        self.label = label
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var fields = metadata
        if let extra = event.metadata { fields.merge(extra) { _, new in new } }
        var line = "time=\(Date().formatted(.iso8601)) level=\(event.level) event=\(Self.quoted(event.message.description))"
        for (key, value) in fields.sorted(by: { $0.key < $1.key }) {
            line += " \(key)=\(Self.quoted(value.description))"
        }
        line += "\n"
        FileHandle.standardOutput.write(Data(line.utf8))
    }

    /// Values with spaces, quotes or `=` are quoted so each line splits cleanly.
    static func quoted(_ text: String) -> String {
        let needsQuotes = text.isEmpty || text.contains { $0 == " " || $0 == "\"" || $0 == "=" || $0.isNewline }
        guard needsQuotes else { return text }
        let escaped = text
            .replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
        return "\"\(escaped)\""
    }
}
