import Foundation
import HearthTestSupport
import Testing
@testable import HearthCRDT

/// The vectors in Tests/vectors, which Web/tests/crdt.test.js runs too: the
/// Swift and browser replicas must tell the same story, byte for byte.
@Suite struct SharedVectorTests {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("vectors")

    static var vectorFiles: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter { $0.hasSuffix(".json") && $0 != "refused.json" }.sorted()
    }

    static func json(_ name: String) throws -> [String: Any] {
        let data = try Data(contentsOf: directory.appendingPathComponent(name))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    final class Replica {
        let note: NoteText
        var log: [NoteOperation] = []
        var made: [NoteOperation] = []
        init(id: UInt64) { note = NoteText(replica: id) }

        func receive(_ batch: [UInt8]) throws {
            for operation in try NoteOperation.decode(batch) {
                log += try note.apply(operation)
            }
        }
    }

    @Test func thereAreVectorsToRun() {
        #expect(Self.vectorFiles.count >= 10, "Tests/vectors holds the shared vectors")
    }

    @Test(arguments: vectorFiles)
    func vector(_ file: String) throws {
        let vector = try Self.json(file)
        var replicas: [String: Replica] = [:]
        for (name, id) in try #require(vector["replicas"] as? [String: NSNumber]) {
            replicas[name] = Replica(id: id.uint64Value)
        }
        func replica(_ name: Any?) throws -> Replica {
            let key = try #require(name as? String)
            return try #require(replicas[key], "\(file): no replica \(key)")
        }

        for step in try #require(vector["steps"] as? [[String: Any]]) {
            if let position = step["insert"] as? Int {
                let editor = try replica(step["at"])
                let operation = try editor.note.insert(try #require(step["text"] as? String), at: position)
                editor.log.append(operation)
                editor.made.append(operation)
            } else if let position = step["delete"] as? Int {
                let editor = try replica(step["at"])
                let length = try #require(step["length"] as? Int)
                let operation = try #require(try editor.note.delete(at: position, length: length))
                editor.log.append(operation)
                editor.made.append(operation)
            } else if let pair = step["sync"] as? [String] {
                let (x, y) = (try replica(pair[0]), try replica(pair[1]))
                try y.receive(NoteOperation.encode(x.log))
                try x.receive(NoteOperation.encode(y.log))
            } else if let pair = step["send"] as? [String] {
                let (x, y) = (try replica(pair[0]), try replica(pair[1]))
                let indices = try #require(step["operations"] as? [Int])
                try y.receive(NoteOperation.encode(indices.map { x.log[$0] }))
            } else if let name = step["receive"] {
                try replica(name).receive(Hex.bytes(try #require(step["bytes"] as? String)))
            } else if let check = step["check"] as? [String: Any] {
                for (name, text) in check["text"] as? [String: String] ?? [:] {
                    try expectEqual(replica(name).note.text, text, "\(file): check text of \(name)")
                }
                for (name, count) in check["pending"] as? [String: Int] ?? [:] {
                    try expectEqual(replica(name).note.pendingCount, count, "\(file): check pending of \(name)")
                }
            } else {
                Issue.record("\(file): unknown step \(step)")
            }
        }

        let expect = try #require(vector["expect"] as? [String: Any])
        for (name, text) in expect["text"] as? [String: String] ?? [:] {
            try expectEqual(replica(name).note.text, text, "\(file): text of \(name)")
        }
        for (name, state) in expect["state"] as? [String: String] ?? [:] {
            expectEqual(Hex.text(try replica(name).note.encodeState()), state, "\(file): state of \(name)")
            let reopened = try NoteText.decodeState(Hex.bytes(state), replica: 999)
            expectEqual(Hex.text(reopened.encodeState()), state, "\(file): state of \(name) re-encoded")
            expectEqual(reopened.text, (try replica(name).note.text))
        }
        for (name, operations) in expect["operations"] as? [String: String] ?? [:] {
            expectEqual(Hex.text(NoteOperation.encode(try replica(name).made)), operations, "\(file): operations of \(name)")
        }
    }

    @Test func bytesADecoderMustRefuseOrAccept() throws {
        let refused = try Self.json("refused.json")
        for entry in try #require(refused["operations"] as? [[String: String]]) {
            #expect(throws: NoteTextError.self, "\(entry["why"] ?? "")") {
                try NoteOperation.decode(Hex.bytes(entry["bytes"]!))
            }
        }
        for entry in try #require(refused["states"] as? [[String: String]]) {
            #expect(throws: NoteTextError.self, "\(entry["why"] ?? "")") {
                try NoteText.decodeState(Hex.bytes(entry["bytes"]!), replica: 1)
            }
        }
        for entry in try #require(refused["accepted"] as? [[String: String]]) {
            let bytes = Hex.bytes(entry["bytes"]!)
            #expect(throws: Never.self, "\(entry["why"] ?? "")") {
                if bytes.first == 1 { _ = try NoteOperation.decode(bytes) } else { _ = try NoteText.decodeState(bytes, replica: 1) }
            }
        }
    }
}
