import HearthNotek
import HearthTestSupport
import Testing

/// The first frame decides the connection's kind; later frames must match it.
@Suite struct ConnectionKindTests {
    static let syncListFrame: [UInt8] = [0x00] + Fixture.timeBytes
    static let sessionStartFrame: [UInt8] = [0x40] + Fixture.timeBytes + Fixture.documentBytes + [0x0A]
    static let legacyInsertFrame: [UInt8] = [0x02, 0x03] + Fixture.polishBytes
    static let legacyDeleteFrame: [UInt8] = [0x03, 0x03] + Fixture.shallowBytes
    static let pullFrame: [UInt8] = [0x01] + Fixture.documentBytes + Fixture.timeBytes
    static let deleteDocumentFrame: [UInt8] = [0x04] + Fixture.documentBytes
    static let insertFrame: [UInt8] = [0x41, 0x03] + Fixture.polishBytes
    static let deleteFrame: [UInt8] = [0x42, 0x03] + Fixture.shallowBytes
    static let nameChangeFrame: [UInt8] = [0x43, 0x0A]

    @Test func oneZeroByteIsAGreetAndNineAreASyncList() throws {
        try expectEqual(NotekMessage.decodeFromClient([0x00], on: .undecided), .greet)
        try expectEqual(NotekMessage.decodeFromClient(Self.syncListFrame, on: .undecided), .syncList(since: Fixture.time))
        expectEqual(NotekMessage.greet.kind, .legacy)
        expectEqual(NotekMessage.syncList(since: 0).kind, .sync)
    }

    @Test(arguments: [2, 3, 8])
    func otherShortFramesStartingWithZeroAreTruncatedSyncLists(length: Int) {
        let frame = Array(Self.syncListFrame.prefix(length))
        expectEqual(Direction.fromClient.error(decoding: frame, on: .undecided)?.isTruncated, true)
    }

    @Test func longerFramesStartingWithZeroHaveTrailingBytes() {
        #expect(throws: NotekProtocolError.trailingBytes(1)) {
            try NotekMessage.decodeFromClient(Self.syncListFrame + [0x00], on: .undecided)
        }
        #expect(throws: NotekProtocolError.trailingBytes(8)) {
            try NotekMessage.decodeFromClient(Self.syncListFrame + Fixture.timeBytes, on: .undecided)
        }
    }

    @Test func theFirstFrameDecidesTheKind() throws {
        try expectEqual(NotekMessage.decodeFromClient([0x00], on: .undecided).kind, .legacy)
        try expectEqual(NotekMessage.decodeFromClient(Self.syncListFrame, on: .undecided).kind, .sync)
        try expectEqual(NotekMessage.decodeFromClient(Self.pullFrame, on: .undecided).kind, .sync)
        try expectEqual(NotekMessage.decodeFromClient(Self.deleteDocumentFrame, on: .undecided).kind, .sync)
        try expectEqual(NotekMessage.decodeFromClient(Self.sessionStartFrame, on: .undecided).kind, .session)
    }

    /// Tags 2 and 3 first are sync requests (upsert, rename), never legacy
    /// edits: a legacy client must greet first.
    @Test func legacyEditsBeforeAGreetAreReadAsSyncRequests() {
        expectEqual(Direction.fromClient.error(decoding: Self.legacyInsertFrame, on: .undecided)?.isTruncated, true)
        expectEqual(Direction.fromClient.error(decoding: Self.legacyDeleteFrame, on: .undecided)?.isTruncated, true)
    }

    @Test(arguments: [
        // A second greet, or a synclist, on a legacy connection.
        ([0x00], NotekConnectionKind.legacy, UInt8(0)),
        (syncListFrame, .legacy, 0),
        (pullFrame, .legacy, 1),
        (deleteDocumentFrame, .legacy, 4),
        (sessionStartFrame, .legacy, 64),
        (insertFrame, .legacy, 65),
        (nameChangeFrame, .legacy, 67),
        // A greet, or session messages, on a sync connection.
        ([0x00], .sync, 0),
        (sessionStartFrame, .sync, 64),
        (insertFrame, .sync, 65),
        (deleteFrame, .sync, 66),
        (nameChangeFrame, .sync, 67),
        // Legacy and sync messages, or a second session_start, in a session.
        ([0x00], .session, 0),
        (syncListFrame, .session, 0),
        (legacyInsertFrame, .session, 2),
        (legacyDeleteFrame, .session, 3),
        (deleteDocumentFrame, .session, 4),
        (sessionStartFrame, .session, 64),
        // Session edits before session_start.
        (insertFrame, .undecided, 65),
        (deleteFrame, .undecided, 66),
        (nameChangeFrame, .undecided, 67),
    ] as [([UInt8], NotekConnectionKind, UInt8)])
    func clientMessagesOfAnotherKindAreRefused(frame: [UInt8], kind: NotekConnectionKind, tag: UInt8) {
        #expect(throws: NotekProtocolError.wrongConnectionKind(tag: tag, connection: kind)) {
            try NotekMessage.decodeFromClient(frame, on: kind)
        }
    }

    @Test func hubMessagesOfAnotherKindAreRefused() {
        let newSession: [UInt8] = [0x01, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]
        let documentList: [UInt8] = [0x20, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]
        let cases: [([UInt8], NotekConnectionKind, UInt8)] = [
            (newSession, .sync, 1), (newSession, .session, 1),
            (Self.legacyInsertFrame, .sync, 2), (Self.legacyDeleteFrame, .session, 3),
            (documentList, .legacy, 32), (documentList, .session, 32),
            (Self.insertFrame, .legacy, 65), (Self.deleteFrame, .sync, 66),
            // The hub never speaks first.
            (newSession, .undecided, 1), (documentList, .undecided, 32), (Self.nameChangeFrame, .undecided, 67),
        ]
        for (frame, kind, tag) in cases {
            #expect(throws: NotekProtocolError.wrongConnectionKind(tag: tag, connection: kind), "\(tag) on \(kind)") {
                try NotekMessage.decodeFromHub(frame, on: kind)
            }
        }
    }

    /// Tags no message has in that direction: not "wrong kind" but unknown.
    @Test func unknownTagsAreRefused() {
        for kind in allKinds {
            for tag: UInt8 in [5, 31, 32, 33, 63, 68, 128, 255] {
                expectEqual(Direction.fromClient.error(decoding: [tag] + Fixture.timeBytes, on: kind), .unknownTag(tag, kind))
            }
            for tag: UInt8 in [0, 4, 5, 31, 34, 63, 64, 68, 255] {
                expectEqual(Direction.fromHub.error(decoding: [tag] + Fixture.timeBytes, on: kind), .unknownTag(tag, kind))
            }
        }
    }

    @Test func anEmptyFrameIsTruncated() {
        for kind in allKinds {
            for direction in Direction.allCases {
                expectEqual(direction.error(decoding: [], on: kind)?.isTruncated, true)
            }
        }
    }

    @Test func closeReasonsAreShortPlainLines() {
        let errors: [NotekProtocolError] = [
            .truncated(what: "sync_doc_response's document id"), .trailingBytes(Int.max), .badDepth(255),
            .badCharacterLength(255), .notOneCharacter, .unknownTag(255, .undecided),
            .wrongConnectionKind(tag: 255, connection: .session), .nameTooLong(Int.max), .nameNotUTF8,
            .countTooLarge(.max),
        ]
        for error in errors {
            #expect(error.description.utf8.count < 100, "\(error)")
            #expect(!error.description.contains("\n"))
        }
        expectEqual(NotekProtocolError.badDepth(0).description, "protocol error: PID depth 0 is not 1 to 32")
    }
}
