import Foundation
import Testing

/// The store is the one place that writes, and every public method that
/// writes for a person names who acts (`PermissionPolicy.Actor`) and asks
/// the policy inside its transaction. The compiler keeps other modules off
/// the write path (`write(by:)` and `WriteTransaction.db` are internal);
/// this test keeps the store's own public methods honest, so a new one that
/// writes without an actor fails here rather than in a probe.
@Suite struct PermissionPathTests {
    /// Public writes that take no actor, each for a reason. A method leaves
    /// this list when it gains one; nothing new joins it without a reason.
    static let withoutActor: [String: String] = [
        // The hub's own work, on a schedule or a signal, for nobody in particular.
        "climbLadders": "the away-from-home service's escalation",
        "awayMessageSent": "the away-from-home service's record of a text or push",
        "awayMessageNotSent": "the away-from-home service's record of a failure",
        "recordDeliveries": "the alert apps' delivery records",
        "compactChanges": "folding the change log",
        "compactNote": "folding a note's operations",
        "purgeTrash": "emptying Trash after 30 days",
        "refreshNoteSearch": "the search index",
        "storeNoteText": "a note's text stored by its editing session, which checked each editor",
        "ensureHousehold": "the household made at first start",
        "compareClock": "a device's reading raises the clock alert; correcting it takes an actor",
        "pairedDevice": "a paired device's last-seen time",
        // Positions only, outside the change log (the Notek bridge's notes take `Actor.notekBridge`).
        "storeNotekPositions": "the Notek bridge's positions, outside the change log",
        // The authority is something held, not someone signed in.
        "redeemPairing": "the pairing code is the authority, checked against its maker again",
        "takeTextReply": "the texted code and the number it was sent to are the authority",
    ]

    static var storeSources: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/HearthStore")
    }

    @Test func everyPublicStoreMethodThatWritesNamesItsActorOrHasAReason() throws {
        // Every folder of the store (its features live in subfolders).
        let files = (FileManager.default.enumerator(at: Self.storeSources, includingPropertiesForKeys: nil)?.allObjects ?? [])
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        #expect(files.count > 20, "the store's sources were found")
        var writers: Set<String> = []
        var withoutActor: [String] = []
        for file in files {
            for method in Self.publicMethods(in: try String(contentsOf: file, encoding: .utf8)) where method.writes {
                writers.insert(method.name)
                if !method.signature.contains("PermissionPolicy.Actor") { withoutActor.append(method.name) }
            }
        }
        #expect(writers.count > 50, "the scan finds the store's writes")
        let unexplained = Set(withoutActor).subtracting(Self.withoutActor.keys)
        #expect(unexplained.isEmpty, "public store methods that write without an Actor: \(unexplained.sorted())")
        let stale = Set(Self.withoutActor.keys).subtracting(withoutActor)
        #expect(stale.isEmpty, "now take an Actor or are gone; take them off the list: \(stale.sorted())")
    }

    @Test func theWritePathItselfIsNotPublic() throws {
        let store = try String(contentsOf: Self.storeSources.appendingPathComponent("HearthStore.swift"), encoding: .utf8)
        let transaction = try String(contentsOf: Self.storeSources.appendingPathComponent("WriteTransaction.swift"), encoding: .utf8)
        #expect(!store.contains("public func write<"))
        #expect(store.contains("func write<"))
        #expect(!transaction.contains("public let db") && !transaction.contains("public var db"))
    }

    struct Method {
        var name: String
        var signature: String
        var writes: Bool
    }

    /// Each `public func` with its parameter list and whether its body
    /// writes: enough of Swift for the store's own sources.
    static func publicMethods(in source: String) -> [Method] {
        let text = Array(source)
        var methods: [Method] = []
        var searchFrom = source.startIndex
        while let found = source.range(of: "public func ", range: searchFrom..<source.endIndex) {
            searchFrom = found.upperBound
            var index = source.distance(from: source.startIndex, to: found.upperBound)
            let nameStart = index
            while index < text.count, text[index].isLetter || text[index].isNumber || text[index] == "_" { index += 1 }
            let name = String(text[nameStart..<index])
            guard let open = text[index...].firstIndex(of: "("), let close = matching(text, from: open, "(", ")"),
                  let brace = text[close...].firstIndex(of: "{"), let end = matching(text, from: brace, "{", "}")
            else { continue }
            let body = String(text[brace...end])
            methods.append(Method(name: name, signature: String(text[open...close]),
                                  writes: body.contains("write(by:") || body.contains("writeOutsideChangeLog")))
        }
        return methods
    }

    static func matching(_ text: [Character], from start: Int, _ open: Character, _ close: Character) -> Int? {
        var depth = 0
        for index in start..<text.count {
            if text[index] == open { depth += 1 }
            if text[index] == close {
                depth -= 1
                if depth == 0 { return index }
            }
        }
        return nil
    }
}
