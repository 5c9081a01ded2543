import Foundation
import HearthCRDT

/// Replays editing traces through `NoteText`: as local edits, as remote
/// operations on a second replica, then encodes and decodes the final state.
enum CRDTBenchmark {
    struct Result {
        var trace: String
        var edits: Int
        var local: Duration
        var remote: Duration
        var encode: Duration
        var decode: Duration
        var stateBytes: Int
        var peakMemoryMB: Double
    }

    static func run(_ trace: EditingTrace) throws -> Result {
        let clock = ContinuousClock()
        let typist = NoteText(replica: 1)
        if !trace.startContent.isEmpty { try typist.insert(trace.startContent, at: 0) }
        var operations: [NoteOperation] = []
        operations.reserveCapacity(trace.patches.count * 2)
        let local = try clock.measure {
            for patch in trace.patches {
                if patch.deleted > 0, let deletion = try typist.delete(at: patch.position, length: patch.deleted) {
                    operations.append(deletion)
                }
                if !patch.inserted.isEmpty {
                    operations.append(try typist.insert(patch.inserted, at: patch.position))
                }
            }
        }
        guard typist.text == trace.endContent else { throw Mismatch(trace: trace.name, stage: "local replay") }

        let listener = NoteText(replica: 2)
        let remote = try clock.measure {
            for operation in operations { try listener.apply(operation, waitForMissing: false) }
        }
        guard listener.text == trace.endContent else { throw Mismatch(trace: trace.name, stage: "remote apply") }

        var state: [UInt8] = []
        let encode = clock.measure { state = listener.encodeState() }
        var reopened: NoteText?
        let decode = try clock.measure { reopened = try NoteText.decodeState(state, replica: 3) }
        guard reopened?.text == trace.endContent else { throw Mismatch(trace: trace.name, stage: "decode") }
        return Result(trace: trace.name, edits: trace.patches.count, local: local, remote: remote, encode: encode,
                      decode: decode, stateBytes: state.count, peakMemoryMB: peakMemoryMB())
    }

    struct Mismatch: Error, CustomStringConvertible {
        let trace: String
        let stage: String
        var description: String { "\(trace): the text after \(stage) is not the trace's endContent" }
    }

    /// The process's peak resident memory so far (getrusage's ru_maxrss).
    static func peakMemoryMB() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_maxrss) / 1024
    }

    static func table(_ results: [Result]) -> String {
        func ms(_ duration: Duration) -> String {
            String(format: "%.1f", Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15)
        }
        func perSecond(_ count: Int, _ duration: Duration) -> String {
            let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
            return String(format: "%.2fM", Double(count) / seconds / 1e6)
        }
        var lines = [
            "| trace | edits | local ms | local ops/s | remote ms | remote ops/s | encode ms | decode ms | state KB | peak RSS MB |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for result in results {
            lines.append("| \(result.trace) | \(result.edits) | \(ms(result.local)) | \(perSecond(result.edits, result.local)) | "
                + "\(ms(result.remote)) | \(perSecond(result.edits, result.remote)) | \(ms(result.encode)) | "
                + "\(ms(result.decode)) | \(String(format: "%.1f", Double(result.stateBytes) / 1024)) | "
                + "\(String(format: "%.1f", result.peakMemoryMB)) |")
        }
        return lines.joined(separator: "\n")
    }
}
