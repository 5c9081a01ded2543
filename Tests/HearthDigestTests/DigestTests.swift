import Foundation
import HearthDigest
import HearthTestSupport
import Testing

/// HearthDigest against the standards' examples and Python's hashlib/hmac
/// (Tests/vectors/digest/sha256.json, written by Tools/digest-vectors.py),
/// and against coreutils' sha256sum on inputs made here.
struct DigestTests {
    struct Vectors: Decodable {
        struct Hash: Decodable {
            var source: String
            var message: String
            var digest: String
        }
        struct Code: Decodable {
            var source: String
            var key: String
            var message: String
            var code: String
        }
        var sha256: [Hash]
        var hmac: [Code]
    }

    static func vectors() throws -> Vectors {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("vectors/digest/sha256.json")
        return try JSONDecoder().decode(Vectors.self, from: Data(contentsOf: file))
    }

    @Test func everySharedHashMatches() throws {
        let vectors = try Self.vectors()
        #expect(vectors.sha256.count > 100)
        for vector in vectors.sha256 {
            expectEqual(Hex.text(SHA256.hash(Hex.bytes(vector.message))), vector.digest, "\(vector.source)")
        }
    }

    @Test func aHashFedInPiecesIsTheHashOfTheWhole() throws {
        for vector in try Self.vectors().sha256 {
            let message = Hex.bytes(vector.message)
            var hasher = SHA256()
            var rest = message[...]
            var piece = 1
            while !rest.isEmpty {
                hasher.update(rest.prefix(piece))
                rest = rest.dropFirst(piece)
                piece = piece * 3 % 71 + 1
            }
            expectEqual(Hex.text(hasher.finalize()), vector.digest, "\(vector.source), in pieces")
        }
    }

    /// FIPS 180-4's third example: a million "a"s, 15,625 blocks.
    @Test func aMillionLettersA() {
        var hasher = SHA256()
        let thousand = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
        for _ in 0..<1000 { hasher.update(thousand) }
        expectEqual(Hex.text(hasher.finalize()), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func randomInputsHashAsCoreutilsHashesThem() throws {
        var random = SeededRandom(seed: 0x5a5_2026)
        let directory = try TemporaryDirectory()
        for round in 0..<40 {
            let length = round < 20 ? 50 + round : Int.random(in: 0...5000, using: &random)
            let message = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            let file = directory.url.appendingPathComponent("input-\(round)")
            try Data(message).write(to: file)
            let theirs = try sha256sum(file)
            expectEqual(Hex.text(SHA256.hash(message)), theirs, "seed 0x5a52026, round \(round), \(length) bytes")
        }
    }

    @Test func everySharedCodeMatchesAndIsAccepted() throws {
        let vectors = try Self.vectors()
        for vector in vectors.hmac {
            let key = Hex.bytes(vector.key), message = Hex.bytes(vector.message)
            expectEqual(Hex.text(HMACSHA256.code(for: message, key: key)), vector.code, "\(vector.source)")
            #expect(HMACSHA256.isValid(Hex.bytes(vector.code), for: message, key: key), "\(vector.source)")
        }
    }

    @Test func aCodeWithAnyByteChangedOrCutShortIsRefused() throws {
        let vector = try Self.vectors().hmac[1]
        let key = Hex.bytes(vector.key), message = Hex.bytes(vector.message), code = Hex.bytes(vector.code)
        for index in code.indices {
            var bent = code
            bent[index] ^= 0x01
            #expect(!HMACSHA256.isValid(bent, for: message, key: key), "byte \(index) changed")
        }
        #expect(!HMACSHA256.isValid(code.dropLast(), for: message, key: key))
        #expect(!HMACSHA256.isValid(code + [0], for: message, key: key))
        #expect(!HMACSHA256.isValid([], for: message, key: key))
        #expect(!HMACSHA256.isValid(code, for: message + [0], key: key))
        // (Not `key + [0]`: HMAC pads a short key with zeros, so that is the same key.)
        #expect(!HMACSHA256.isValid(code, for: message, key: key.dropLast() + [key.last! ^ 0x01]))
    }

    private func sha256sum(_ file: URL) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = [file.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return String(text.prefix(64))
    }
}
