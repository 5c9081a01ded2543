import Foundation
import Logging
import HearthEditing
import HearthCore
import HearthHubTestSupport
@testable import HearthServer
import HearthStore
import HTTPTypes
import Hummingbird
import HearthTestSupport
import Testing

/// Pairing a device over HTTP, and the routes that need a paired device.
@Suite struct PairingRouteTests {
    static let json: HTTPFields = [.contentType: "application/json"]

    static func pair(_ client: PairedClient, _ body: String) async throws -> (HTTPResponse.Status, [String: JSONValue], String?) {
        try await client.anonymous.execute(uri: "/api/v1/pairing", method: .post, headers: json, body: ByteBuffer(string: body)) { response in
            let decoded = (try? JSONDecoder().decode([String: JSONValue].self, from: Data(buffer: response.body))) ?? [:]
            return (response.status, decoded, response.headers[.setCookie])
        }
    }

    @Test func aCodeFromTheQRPairsTheDeviceAndSetsItsCookie() async throws {
        try await RouteTests.withRouter { client, store in
            let invitation = try await store.createPairing(for: .newPerson(name: "Anna", role: .admin), deviceName: nil, by: "cli", maker: .hubTerminal)
            let (status, body, cookie) = try await Self.pair(client, #"{"code":"\#(invitation.code.secret)","deviceName":"Anna's phone"}"#)
            expectEqual(status, .created)
            guard case .string(let token) = body["token"] else { Issue.record("no token in \(body)"); return }
            expectEqual(body["person"], ["id": body["person"]?.objectValue?["id"] ?? .null, "name": "Anna", "role": "admin"])
            let setCookie = try #require(cookie)
            #expect(setCookie.contains("hearth_device=\(token)"))
            #expect(setCookie.contains("HttpOnly"))
            #expect(setCookie.contains("SameSite=Strict"))

            // The token works as a bearer token and as the cookie.
            try await client.execute(uri: "/api/v1/people", method: .get, headers: [.authorization: "Bearer \(token)"]) { response in
                expectEqual(response.status, .ok)
                #expect(String(buffer: response.body).contains("Anna"))
            }
            try await client.execute(uri: "/api/v1/devices", method: .get, headers: [.cookie: "hearth_device=\(token)"]) { response in
                expectEqual(response.status, .ok)
                #expect(String(buffer: response.body).contains(#""current":true"#))
            }
            // The same code a second time pairs nothing.
            let (again, _, _) = try await Self.pair(client, #"{"code":"\#(invitation.code.secret)","deviceName":"Thief"}"#)
            expectEqual(again, .notFound)
            try await expectEqual(store.devices().count, 2)
        }
    }

    @Test(arguments: [
        (#"{"code":"bm90LWEtcmVhbC1jb2Rl"}"#, HTTPResponse.Status.notFound),
        (#"{"shortCode":"ZZZZ-ZZZZ"}"#, .notFound),
        (#"{"shortCode":"not a code"}"#, .notFound),
        (#"{}"#, .unprocessableContent),
        (#"{"code":"a","shortCode":"b"}"#, .unprocessableContent),
        (#"{"code":5}"#, .unprocessableContent),
    ])
    func badCodesAreRefusedAndPairNothing(body: String, status: HTTPResponse.Status) async throws {
        try await RouteTests.withRouter { client, store in
            let (got, problem, cookie) = try await Self.pair(client, body)
            expectEqual(got, status)
            #expect(problem["type"] != nil)
            #expect(cookie == nil)
            try await expectEqual(store.devices().count, 1, "only the test's own admin laptop")
        }
    }

    @Test func guessingIsRateLimitedPerAddress() async throws {
        try await RouteTests.withRouter { client, _ in
            var statuses: [HTTPResponse.Status] = []
            for _ in 0..<12 {
                statuses.append(try await Self.pair(client, #"{"code":"bm90LWEtcmVhbC1jb2Rl"}"#).0)
            }
            #expect(statuses.prefix(10).allSatisfy { $0 == .notFound })
            #expect(statuses.suffix(2).allSatisfy { $0 == .tooManyRequests })
        }
    }

    @Test func unpairedAndForgedCallersGet401() async throws {
        try await RouteTests.withRouter { client, _ in
            for headers: HTTPFields in [[:], [.authorization: "Bearer forged"], [.cookie: "hearth_device=forged"]] {
                for uri in ["/api/v1/people", "/api/v1/devices"] {
                    try await client.anonymous.execute(uri: uri, method: .get, headers: headers) { response in
                        expectEqual(response.status, .unauthorized, "\(uri) \(headers)")
                        expectEqual(response.headers[.contentType], "application/problem+json")
                    }
                }
            }
        }
    }

    @Test func onlyAdminsRevokeOthersDevicesAndRevocationTakesEffectAtOnce() async throws {
        try await RouteTests.withRouter { client, store in
            let adminCode = try await store.createPairing(for: .newPerson(name: "Second admin", role: .admin), deviceName: nil, by: "cli", maker: .hubTerminal)
            let (admin, adminToken) = try await store.redeemPairing(.secret(adminCode.code.secret), deviceName: "Laptop", userAgent: nil)
            let seniorCode = try await store.createPairing(for: .newPerson(name: "Babcia", role: .senior), deviceName: nil, by: "cli", maker: .hubTerminal)
            let (tablet, tabletToken) = try await store.redeemPairing(.secret(seniorCode.code.secret), deviceName: "Tablet", userAgent: nil)

            // The senior cannot see, let alone revoke, the admin's laptop.
            try await client.execute(uri: "/api/v1/devices/\(admin.device.id.text)", method: .delete,
                                     headers: [.authorization: "Bearer \(tabletToken)"]) { response in
                expectEqual(response.status, .notFound)
            }
            try await client.execute(uri: "/api/v1/devices", method: .get, headers: [.authorization: "Bearer \(tabletToken)"]) { response in
                #expect(!String(buffer: response.body).contains(admin.device.id.text))
            }
            // The admin can; the tablet's very next request is refused.
            try await client.execute(uri: "/api/v1/devices/\(tablet.device.id.text)", method: .delete,
                                     headers: [.authorization: "Bearer \(adminToken)"]) { response in
                expectEqual(response.status, .noContent)
            }
            try await client.execute(uri: "/api/v1/people", method: .get, headers: [.authorization: "Bearer \(tabletToken)"]) { response in
                expectEqual(response.status, .unauthorized)
            }
        }
    }

    @Test func aCookieAloneCannotChangeThingsWithoutAnOrigin() async throws {
        try await RouteTests.withRouter { client, store in
            let code = try await store.createPairing(for: .newPerson(name: "Second admin", role: .admin), deviceName: nil, by: "cli", maker: .hubTerminal)
            let (_, token) = try await store.redeemPairing(.secret(code.code.secret), deviceName: "Laptop", userAgent: nil)
            try await client.execute(uri: "/api/v1/household", method: .patch,
                                     headers: [.contentType: "application/json", .cookie: "hearth_device=\(token)"],
                                     body: ByteBuffer(string: #"{"name":"Changed"}"#)) { response in
                expectEqual(response.status, .forbidden)
            }
            try await expectEqual(store.household()?.name, "Kowalski family")
        }
    }
}

extension JSONValue {
    var objectValue: [String: JSONValue]? {
        if case .object(let object) = self { return object }
        return nil
    }
}

/// Pairing codes made from a page and shown as a QR code on screen.
@Suite struct InvitationRouteTests {
    static func invite(_ client: PairedClient, _ body: String, token: String? = nil) async throws -> (HTTPResponse.Status, [String: JSONValue]) {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let token { headers[.authorization] = "Bearer \(token)" }
        return try await client.execute(uri: "/api/v1/pairing/invitations", method: .post, headers: headers,
                                        body: ByteBuffer(string: body)) { response in
            (response.status, (try? JSONDecoder().decode([String: JSONValue].self, from: Data(buffer: response.body))) ?? [:])
        }
    }

    @Test func aCodesLinkCarriesTheHubsOwnAddressNotTheRequestsHost() async throws {
        try await RunningHub.with(router: { HearthServer.router(store: $0, noteSessions: NoteSessions(store: $0, logger: Logger(label: "test")), pairingURL: { "http://192.168.1.20:8080/pair#\($0)" }) }) { port, _, _, token in
            let client = LiveServerTests.client(port)
            // Given a page that sends another host's name
            let response = try await client.execute(.init(
                "/api/v1/pairing/invitations", method: .post, authority: "evil.example",
                headers: [.authorization: "Bearer \(token)", .contentType: "application/json"],
                body: ByteBuffer(string: #"{"newPerson":{"name":"Ela","role":"caregiver"}}"#)))
            expectEqual(response.status, .created)
            let body = try JSONDecoder().decode([String: JSONValue].self, from: Data(buffer: response.body))
            // Then the link is to the hub, where the phone should take the code
            let url = try #require(body["url"]?.text)
            #expect(url.hasPrefix("http://192.168.1.20:8080/pair#"), "\(url)")
            #expect(!url.contains("evil"))
            try await client.shutdown()
        }
    }

    @Test func anAdminShowsACodeThatAPhoneCanUse() async throws {
        try await RouteTests.withRouter { client, store in
            let (status, body) = try await Self.invite(client, #"{"newPerson":{"name":"Ciocia Ela","role":"caregiver"}}"#)
            expectEqual(status, .created)
            guard case .string(let url)? = body["url"], case .string(let svg)? = body["svg"], case .string(let id)? = body["id"] else {
                Issue.record("incomplete invitation \(body)"); return
            }
            #expect(url.contains("/pair#"))
            #expect(svg.hasPrefix("<svg") && svg.contains("<title>Pairing code for Ciocia Ela</title>"))
            try await client.execute(uri: "/api/v1/pairing/invitations/\(id)", method: .get) { response in
                #expect(String(buffer: response.body).contains(#""status":"waiting""#))
            }
            let secret = String(url.split(separator: "#").last ?? "")
            _ = try await store.redeemPairing(.secret(secret), deviceName: "Ela's phone", userAgent: nil)
            try await client.execute(uri: "/api/v1/pairing/invitations/\(id)", method: .get) { response in
                let text = String(buffer: response.body)
                #expect(text.contains(#""status":"paired""#) && text.contains("Ela's phone"))
            }
        }
    }

    /// Issue 38 #2: a code for her own caregiver, redeemed by the tablet
    /// itself, made the tablet that caregiver, who looks after other seniors.
    @Test func aSeniorsTabletInvitesOnlySomeoneNewNeverAnyoneWhoExists() async throws {
        try await RouteTests.withRouter { client, store in
            let seniorCode = try await store.createPairing(for: .newPerson(name: "Babcia", role: .senior), deviceName: nil, by: "test", maker: .hubTerminal)
            let (tablet, tabletToken) = try await store.redeemPairing(.secret(seniorCode.code.secret), deviceName: "Tablet", userAgent: nil)
            let linked = try await store.addPerson(name: "Kasia", role: .caregiver, as: .hubTerminal, by: "test")
            let stranger = try await store.addPerson(name: "Obcy", role: .caregiver, as: .hubTerminal, by: "test")
            try await store.link(caregiver: linked.id, senior: tablet.person.id, as: .hubTerminal, by: "test")

            #expect(try await Self.invite(client, #"{"personId":"\#(linked.id.text)"}"#, token: tabletToken).0 == .forbidden)
            #expect(try await Self.invite(client, #"{"personId":"\#(stranger.id.text)"}"#, token: tabletToken).0 == .forbidden)
            #expect(try await Self.invite(client, #"{"newPerson":{"name":"Nowa","role":"caregiver"}}"#, token: tabletToken).0 == .created)
            #expect(try await Self.invite(client, #"{"newPerson":{"name":"Nowy","role":"admin"}}"#, token: tabletToken).0 == .forbidden)
            #expect(try await Self.invite(client, #"{"personId":"\#(UUID().uuidString)"}"#).0 == .notFound)
            #expect(try await Self.invite(client, #"{}"#).0 == .unprocessableContent)
        }
    }

    @Test func aSeniorsTabletNeverPairsAnAdminAndItsCodesDieWithIt() async throws {
        try await RouteTests.withRouter { client, store in
            let seniorCode = try await store.createPairing(for: .newPerson(name: "Babcia", role: .senior), deviceName: nil, by: "test", maker: .hubTerminal)
            let (tablet, tabletToken) = try await store.redeemPairing(.secret(seniorCode.code.secret), deviceName: "Tablet", userAgent: nil)
            let admin = try #require(try await store.person(named: "Admin"))
            let kasia = try await store.addPerson(name: "Kasia", role: .caregiver, as: .hubTerminal, by: "test")
            try await store.link(caregiver: admin.id, senior: tablet.person.id, as: .hubTerminal, by: "test")
            try await store.link(caregiver: kasia.id, senior: tablet.person.id, as: .hubTerminal, by: "test")
            // Given the admin looks after Babcia, her tablet still may not make a code for the admin
            let (status, problem) = try await Self.invite(client, #"{"personId":"\#(admin.id.text)"}"#, token: tabletToken)
            expectEqual(status, .forbidden)
            expectEqual(problem["type"], "urn:hearth:problem:forbidden")
            // Nor for Kasia, who looks after her
            #expect(try await Self.invite(client, #"{"personId":"\#(kasia.id.text)"}"#, token: tabletToken).0 == .forbidden)
            // And a code it made for someone new pairs nobody once the tablet is removed
            let (made, invitation) = try await Self.invite(client, #"{"newPerson":{"name":"Ola","role":"caregiver"}}"#, token: tabletToken)
            expectEqual(made, .created)
            let secret = String(try #require(invitation["url"]?.text).split(separator: "#").last ?? "")
            try await store.revokeDevice(id: tablet.device.id, as: PermissionPolicy.Actor(personId: UUID(), role: .admin), by: "test")
            await #expect(throws: HearthError.self) {
                _ = try await store.redeemPairing(.secret(secret), deviceName: "Ola's phone", userAgent: nil)
            }
            #expect(try await store.person(named: "Ola") == nil, "nobody was added")
        }
    }
    @Test func theAdminSeesWhichDevicesASeniorsTabletAdded() async throws {
        try await RouteTests.withRouter { client, store in
            let seniorCode = try await store.createPairing(for: .newPerson(name: "Babcia", role: .senior), deviceName: nil, by: "test", maker: .hubTerminal)
            let (tablet, tabletToken) = try await store.redeemPairing(.secret(seniorCode.code.secret), deviceName: "Tablet", userAgent: nil)
            // Given Babcia's tablet showed a code for someone new that Kasia's phone used
            let (made, invitation) = try await Self.invite(client, #"{"newPerson":{"name":"Kasia","role":"caregiver"}}"#, token: tabletToken)
            expectEqual(made, .created)
            let secret = String(try #require(invitation["url"]?.text).split(separator: "#").last ?? "")
            let (phone, _) = try await store.redeemPairing(.secret(secret), deviceName: "Kasia's phone", userAgent: nil)
            // The admin's list says who added it; the devices paired at the console say nobody
            let devices = try await client.execute(uri: "/api/v1/devices", method: .get) { response in
                try JSONDecoder().decode([[String: JSONValue]].self, from: Data(buffer: response.body))
            }
            let byId = Dictionary(uniqueKeysWithValues: devices.compactMap { device in device["id"]?.text.map { ($0, device) } })
            expectEqual(byId[phone.device.id.text]?["pairedBy"], .string(tablet.person.id.text))
            #expect(byId[tablet.device.id.text]?["pairedBy"] == nil)
            expectEqual(byId.count, 3, "the admin's laptop, the tablet and the phone")
        }
    }
}
