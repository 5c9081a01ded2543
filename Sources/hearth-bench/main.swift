import Foundation

// hearth-bench: measurements that are not tests. Release builds only:
//   swift run -c release hearth-bench crdt [TRACE.json.gz …]
// With no trace named, every file in ../shared/traces/ is replayed.

let arguments = Array(CommandLine.arguments.dropFirst())
let usage = """
    usage: hearth-bench crdt [TRACE.json[.gz] …]
           hearth-bench relay [HEARTH_BINARY] [LISTENERS] [NOTE_KB] [KEYSTROKES]
           hearth-bench sync [DOSES_PER_DAY …]   (HEARTH_BENCH_NOTES: how many notes, 2,000 unless set)

    """
guard let command = arguments.first, ["crdt", "relay", "sync"].contains(command) else {
    FileHandle.standardError.write(Data(usage.utf8))
    exit(64)
}
if command == "sync" {
    // 4 a day in all (one time each for four of the medications), and 4 a day each.
    let rates = arguments.dropFirst().compactMap { Int($0) }.filter { $0 > 0 }
    do {
        for rate in rates.isEmpty ? [4, 40] : rates {
            let rows = try await SyncBenchmark.run(dosesPerDay: rate)
            let notes = ProcessInfo.processInfo.environment["HEARTH_BENCH_NOTES"].flatMap(Int.init) ?? 2000
            print(SyncBenchmark.table("Sync: 10 medications, \(rate) doses a day for 5 years (\(rate * 365 * 5) doses), \(notes) notes", rows))
            print("")
        }
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("hearth-bench: sync: \(error)\n".utf8))
        exit(1)
    }
}
if command == "relay" {
    var options = RelayBenchmark.Options()
    if arguments.count > 1 { options.binary = arguments[1] }
    if arguments.count > 2, let listeners = Int(arguments[2]), listeners > 0 { options.listeners = listeners }
    if arguments.count > 3, let kilobytes = Int(arguments[3]), kilobytes >= 0, kilobytes <= 900 { options.noteKB = kilobytes }
    if arguments.count > 4, let keystrokes = Int(arguments[4]), keystrokes > 0 { options.characters = keystrokes }
    do {
        print(RelayBenchmark.table(try await RelayBenchmark.run(options)))
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("hearth-bench: relay: \(error)\n".utf8))
        exit(1)
    }
}
var paths = Array(arguments.dropFirst())
if paths.isEmpty {
    let directory = "../shared/traces"
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    paths = names.filter { $0.hasSuffix(".json") || $0.hasSuffix(".json.gz") }.sorted().map { "\(directory)/\($0)" }
    if paths.isEmpty {
        FileHandle.standardError.write(Data("hearth-bench: no traces given and none in \(directory)\n".utf8))
        exit(1)
    }
}
#if DEBUG
print("note: this is a debug build; numbers mean little (use swift run -c release hearth-bench)")
#endif
var results: [CRDTBenchmark.Result] = []
for path in paths {
    do {
        results.append(try CRDTBenchmark.run(try EditingTrace.load(path)))
    } catch {
        FileHandle.standardError.write(Data("hearth-bench: \(error)\n".utf8))
        exit(1)
    }
}
print(CRDTBenchmark.table(results))
// Out before the Yrs rows, which the script writes to the same terminal.
fflush(nil)  // every output stream: stdout itself is a global Swift 6 will not touch

// The same traces through Yrs, when pycrdt is importable (see Benchmarks/crdt-yrs.py).
let python = ProcessInfo.processInfo.environment["HEARTH_BENCH_PYTHON"] ?? "python3"
let yrs = Process()
yrs.executableURL = URL(fileURLWithPath: "/usr/bin/env")
yrs.arguments = [python, "Benchmarks/crdt-yrs.py"] + paths
if FileManager.default.fileExists(atPath: "Benchmarks/crdt-yrs.py"), (try? yrs.run()) != nil {
    yrs.waitUntilExit()
    // 2 is the script's "pycrdt is not importable"; anything else is the
    // script failing, whose error it printed: never called a missing package.
    switch yrs.terminationStatus {
    case 0: break
    case 2: print("(Yrs comparison skipped: install pycrdt for \(python), e.g. pip install pycrdt, or set HEARTH_BENCH_PYTHON)")
    default: print("(Yrs comparison failed: Benchmarks/crdt-yrs.py exited with \(yrs.terminationStatus); its error is printed above)")
    }
}
