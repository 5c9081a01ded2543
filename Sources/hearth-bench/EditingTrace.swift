import Foundation

/// A recorded editing session in the josephg/editing-traces format:
/// `{"startContent", "endContent", "txns": [{"patches": [[position,
/// deleted, inserted], …]}]}`, positions in Unicode scalars.
struct EditingTrace {
    /// `[position, deleted, inserted]`.
    struct Patch: Decodable {
        var position: Int
        var deleted: Int
        var inserted: String

        init(from decoder: any Decoder) throws {
            var fields = try decoder.unkeyedContainer()
            position = try fields.decode(Int.self)
            deleted = try fields.decode(Int.self)
            inserted = try fields.decode(String.self)
        }
    }

    let name: String
    let startContent: String
    let endContent: String
    let patches: [Patch]

    enum Problem: Error, CustomStringConvertible {
        case unreadable(String, String)
        case badShape(String, String)

        var description: String {
            switch self {
            case .unreadable(let path, let why): return "\(path): cannot read: \(why)"
            case .badShape(let path, let why): return "\(path): not an editing trace: \(why)"
            }
        }
    }

    /// Reads a `.json` or `.json.gz` file (gzip through the system's `gzip`).
    static func load(_ path: String) throws -> EditingTrace {
        let data: Data
        if path.hasSuffix(".gz") {
            let gzip = Process()
            gzip.executableURL = URL(fileURLWithPath: "/bin/gzip")
            gzip.arguments = ["-dc", path]
            let output = Pipe()
            gzip.standardOutput = output
            do { try gzip.run() } catch { throw Problem.unreadable(path, "\(error)") }
            data = output.fileHandleForReading.readDataToEndOfFile()
            gzip.waitUntilExit()
            guard gzip.terminationStatus == 0 else { throw Problem.unreadable(path, "gzip exited \(gzip.terminationStatus)") }
        } else {
            guard let contents = FileManager.default.contents(atPath: path) else { throw Problem.unreadable(path, "no such file") }
            data = contents
        }
        // Codable rather than JSONSerialization: a trace's quarter of a
        // million patches as Foundation objects would take a gigabyte and
        // drown the memory the replay itself needs.
        struct File: Decodable {
            var startContent: String?
            var endContent: String?
            var txns: [Transaction]
        }
        struct Transaction: Decodable {
            var patches: [Patch]
        }
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: data)
        } catch {
            throw Problem.badShape(path, "\(error)")
        }
        let name = URL(fileURLWithPath: path).lastPathComponent
            .replacingOccurrences(of: ".json.gz", with: "").replacingOccurrences(of: ".json", with: "")
        return EditingTrace(name: name, startContent: file.startContent ?? "", endContent: file.endContent ?? "",
                            patches: file.txns.flatMap(\.patches))
    }
}
