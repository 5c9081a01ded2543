import Foundation
import HearthCore
import HearthDiscovery
import HearthTestSupport
import Testing
@testable import HearthApp

@Suite struct DiscoveryAdvertisementTests {
    @Test func theHubAnnouncesItsWebPageAndItsAPIUnderTheHouseholdsName() throws {
        let household = Household(id: UUID(uuidString: "6F1C0B52-6A3E-4B7E-9D0E-1C9F3A1D2B4C")!,
                                  name: "Dom Zofii", timeZone: "Europe/Warsaw", createdAt: Date())
        let advertisements = DiscoveryService.advertisements(for: household, port: 8080)
        expectEqual(advertisements.map(\.type), ["_http._tcp", "_hearth._tcp"])
        #expect(advertisements.allSatisfy { $0.name == "Dom Zofii (Hearth)" && $0.port == 8080 })
        expectEqual(advertisements[0].txt, TXTRecord([.init("path", "/")]))
        let api = advertisements[1].txt
        expectEqual(api["id"], "6f1c0b52-6a3e-4b7e-9d0e-1c9f3a1d2b4c")
        expectEqual(api["v"], HearthVersion.current)
        expectEqual(api["api"], "/api/v1")
        for advertisement in advertisements { _ = try advertisement.txt.encoded() }
    }

    @Test func theNotekListenerIsAnnouncedOnlyWhenItIsOn() throws {
        let household = Household(id: UUID(), name: "Dom Zofii", timeZone: "Europe/Warsaw", createdAt: Date())
        let on = DiscoveryService.advertisements(for: household, port: 8080, notekPort: 9001)
        expectEqual(on.map(\.type), ["_http._tcp", "_hearth._tcp", "_notek._tcp"])
        #expect(on[2].port == 9001 && on[2].name == "Dom Zofii (Hearth)")
        _ = try on[2].txt.encoded()
        expectEqual(DiscoveryService.advertisements(for: household, port: 8080).map(\.type), ["_http._tcp", "_hearth._tcp"])
    }
}

@Suite struct HubFinderTests {
    @Test func timeoutsAreSecondsOrMinutesWithinReason() {
        expectEqual(HubFinder.parseTimeout("3s"), .seconds(3))
        expectEqual(HubFinder.parseTimeout("1m"), .seconds(60))
        for bad in ["0s", "3", "s", "10h", "6m", "-1s", "three"] {
            #expect(HubFinder.parseTimeout(bad) == nil, "\(bad)")
        }
    }

    @Test func eachHubIsListedWithAnAddressToOpen() {
        let text = HubFinder.describe([
            FoundHub(name: "Dom Zofii (Hearth)", host: "kitchen-pi.local", addresses: ["192.168.1.20", "fe80::1%eth0"],
                     port: 8080, version: "0.1.0", householdID: nil, apiPath: "/api/v1"),
        ])
        #expect(text == """
            Dom Zofii (Hearth)
              host:      kitchen-pi.local
              addresses: 192.168.1.20, fe80::1%eth0
              port:      8080
              version:   0.1.0
              open:      http://192.168.1.20:8080/

            """)
    }

    @Test func findingNothingSaysWhatToCheck() {
        #expect(HubFinder.describe([]).hasPrefix("No hub found."))
    }
}

@Suite struct DiscoveryBoardTests {
    @Test func anOutageIsWarnedOfOnceUntilTheHubIsAdvertisedAgain() {
        let board = DiscoveryBoard(DiscoveryStatus(state: .waitingForAvahi))
        expectEqual(board.waiting(), true)
        expectEqual(board.waiting(), false)
        board.advertising([.init(type: "_hearth._tcp", name: "Home (Hearth)", port: 8080)])
        expectEqual(board.current.state, .advertising)
        expectEqual(board.waiting(), true)
        expectEqual(board.current, DiscoveryStatus(state: .waitingForAvahi))
    }
}
