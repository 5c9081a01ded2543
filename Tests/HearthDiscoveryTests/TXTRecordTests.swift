import HearthTestSupport
import Testing
@testable import HearthDiscovery

@Suite struct TXTRecordTests {
    @Test func entriesAreLengthPrefixedKeyEqualsValueStrings() throws {
        let record = TXTRecord([.init("path", "/"), .init("v", "0.1.0")])
        try expectEqual(record.encoded(), [6] + Array("path=/".utf8) + [7] + Array("v=0.1.0".utf8))
    }

    @Test func anEmptyRecordIsOneEmptyString() throws {
        // RFC 6763 §6.1: zero bytes is not a valid TXT record.
        try expectEqual(TXTRecord([]).encoded(), [0])
    }

    @Test func whatIsEncodedDecodesToTheSameEntries() throws {
        let record = TXTRecord([.init("id", "6f1c0b52-6a3e-4b7e-9d0e-1c9f3a1d2b4c"), .init("api", "/api/v1"), .init("v", "0.1.0")])
        expectEqual(TXTRecord.decode(try record.encoded()), record)
        expectEqual(TXTRecord.decode(try record.encoded())["API"], "/api/v1")
    }

    @Test func keysThatBreakTheFormatAreRefused() {
        #expect(throws: TXTRecord.Problem.badKey("a=b")) { try TXTRecord([.init("a=b", "c")]).encoded() }
        #expect(throws: TXTRecord.Problem.badKey("")) { try TXTRecord([.init("", "c")]).encoded() }
        #expect(throws: TXTRecord.Problem.badKey("households")) { try TXTRecord([.init("households", "x")]).encoded() }
        #expect(throws: TXTRecord.Problem.tooLong("note")) {
            try TXTRecord([.init("note", String(repeating: "x", count: 251))]).encoded()
        }
    }

    @Test func aTruncatedRecordFromTheNetworkKeepsWhatCameBeforeTheDamage() {
        let bytes: [UInt8] = [6] + Array("path=/".utf8) + [40] + Array("v=1".utf8)
        expectEqual(TXTRecord.decode(bytes), TXTRecord([.init("path", "/")]))
        expectEqual(TXTRecord.decode([3] + Array("abc".utf8))["abc"], "", "a key without a value")
    }
}

@Suite struct AdvertisementTests {
    @Test func theInstanceNameIsTheHouseholdsNameAndHearth() {
        expectEqual(Advertisement.instanceName(household: "Dom Zofii"), "Dom Zofii (Hearth)")
    }

    @Test func aLongHouseholdNameIsShortenedToFitOneDNSLabelWithoutSplittingALetter() {
        let long = String(repeating: "Łęcki ", count: 20)
        let name = Advertisement.instanceName(household: long)
        #expect(name.utf8.count <= Advertisement.maximumNameBytes)
        #expect(name.hasSuffix(" (Hearth)"))
        #expect(name.hasPrefix("Łęcki Łęcki"))
        #expect(!name.contains("\u{FFFD}"))
        #expect(!name.contains("  "), "no space left dangling before the suffix")
    }
}

@Suite struct RetryDelayTests {
    @Test func doublesFromOneSecondToAMinuteAndStartsOverAfterSuccess() {
        var delay = RetryDelay()
        let seconds = (0..<9).map { _ in delay.take().components.seconds }
        expectEqual(seconds, [1, 2, 4, 8, 16, 32, 60, 60, 60])
        delay.reset()
        expectEqual(delay.take(), .seconds(1))
    }
}

@Suite struct DNSSDErrorTests {
    @Test func anUnreachableResponderIsNamedForTheAdmin() {
        let error = DNSSDError(code: -65537, operation: "register _hearth._tcp")
        expectEqual(error.description, "register _hearth._tcp failed: the mDNS responder (avahi-daemon) cannot be reached (-65537)")
    }
}

@Suite struct AddressTextTests {
    @Test func aRecordsBecomeDottedQuadsAndAAAARecordsColonHex() {
        let v4: [UInt8] = [10, 77, 0, 1]
        let v6: [UInt8] = [0x20, 0x01, 0x0d, 0xb8] + [UInt8](repeating: 0, count: 11) + [1]
        #expect(v4.withUnsafeBytes { HubBrowser.addressText(type: 1, data: $0.baseAddress!, length: 4, interface: 0) } == "10.77.0.1")
        #expect(v6.withUnsafeBytes { HubBrowser.addressText(type: 28, data: $0.baseAddress!, length: 16, interface: 0) } == "2001:db8::1")
        #expect(v4.withUnsafeBytes { HubBrowser.addressText(type: 28, data: $0.baseAddress!, length: 4, interface: 0) } == nil,
                "an AAAA record of the wrong length is ignored")
    }
}
