import Foundation
import HearthCore
import HearthHubTestSupport
import HearthStore
import HearthTestSupport
import Testing

/// The ntfy-protocol endpoint on a real server, spoken to over a raw TCP
/// connection as the ntfy app speaks to it: Basic auth, a long-lived
/// `/json` stream, a button's POST.
@Suite(.serialized)
struct NtfyRoutesTests {
    /// Zosia (a senior), Anna who looks after her with an alert app, and
    /// Piotr who does not.
    struct Household: Sendable {
        let zosia: Person
        let anna: AlertApp
        let annaAuth: String
        let piotrAuth: String
        let annaActor: PermissionPolicy.Actor

        init(_ store: HearthStore) async throws {
            zosia = try await store.addPerson(name: "Zosia", role: .senior, as: .hubTerminal, by: "test")
            let anna = try await store.addPerson(name: "Anna", role: .caregiver, as: .hubTerminal, by: "test")
            let piotr = try await store.addPerson(name: "Piotr", role: .caregiver, as: .hubTerminal, by: "test")
            try await store.link(caregiver: anna.id, senior: zosia.id, as: .hubTerminal, by: "test")
            annaActor = PermissionPolicy.Actor(personId: anna.id, role: .caregiver, caresFor: [zosia.id])
            let (app, password) = try await store.createAlertApp(name: "Anna's phone", as: annaActor, by: "test")
            self.anna = app
            annaAuth = Data("\(app.username):\(password)".utf8).base64EncodedString()
            let (piotrApp, piotrPassword) = try await store.createAlertApp(
                name: "Piotr's phone", as: PermissionPolicy.Actor(personId: piotr.id, role: .caregiver), by: "test")
            piotrAuth = Data("\(piotrApp.username):\(piotrPassword)".utf8).base64EncodedString()
        }
    }

    static func get(_ port: Int, _ path: String, auth: String?) async throws -> String {
        let connection = try RawConnection(port: port)
        defer { connection.close() }
        let authorization = auth.map { "Authorization: Basic \($0)\r\n" } ?? ""
        try connection.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\(authorization)Connection: close\r\n\r\n")
        return await connection.readUntilClosed(for: 5)
    }

    @Test func wrongCredentialsTopicsAndSinceAreAnsweredAsProblems() async throws {
        try await RunningHub.with { port, store, _, _ in
            let home = try await Household(store)
            let anonymous = try await Self.get(port, "/ntfy/sos/json", auth: nil)
            #expect(anonymous.hasPrefix("HTTP/1.1 401"), "\(anonymous)")
            #expect(anonymous.lowercased().contains(#"www-authenticate: basic realm="hearth""#))
            #expect(anonymous.contains("application/problem+json"))
            let wrong = Data("\(home.anna.username):guess".utf8).base64EncodedString()
            #expect(try await Self.get(port, "/ntfy/sos/json", auth: wrong).hasPrefix("HTTP/1.1 401"))
            #expect(try await Self.get(port, "/ntfy/notes/json", auth: home.annaAuth).hasPrefix("HTTP/1.1 404"))
            #expect(try await Self.get(port, "/ntfy/sos/json?since=yesterday", auth: home.annaAuth).hasPrefix("HTTP/1.1 400"))
            let auth = try await Self.get(port, "/ntfy/sos/auth", auth: home.annaAuth)
            #expect(auth.hasPrefix("HTTP/1.1 200") && auth.contains(#"{"success":true}"#), "\(auth)")
            #expect(try await Self.get(port, "/ntfy/sos/auth", auth: wrong).hasPrefix("HTTP/1.1 401"))
            #expect(try await Self.get(port, "/ntfy/sos,doses/auth", auth: home.annaAuth).hasPrefix("HTTP/1.1 404"))
            // Not the web app's page: the address belongs to the alert apps.
            #expect(try await Self.get(port, "/ntfy", auth: nil).hasPrefix("HTTP/1.1 404"))
        }
    }

    @Test func serverSentEventsNameEachEventButMessagesAndCarryTheJSON() async throws {
        try await RunningHub.with { port, store, _, _ in
            let home = try await Household(store)
            let anna = try RawConnection(port: port)
            defer { anna.close() }
            try anna.send("GET /ntfy/sos/sse HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAuthorization: Basic \(home.annaAuth)\r\n\r\n")
            let opened = await anna.read(for: 5) { $0.contains("event: open") && $0.contains(#""event":"open""#) }
            #expect(opened.contains("text/event-stream"), "\(opened)")
            let sos = try await store.raiseSOS(for: home.zosia.id, as: PermissionPolicy.Actor(personId: home.zosia.id, role: .senior), by: "test")
            let streamed = await anna.read(for: 5) { $0.contains(sos.id.text) && $0.contains("\n\n") }
            #expect(streamed.contains("data: {") && streamed.contains(#""event":"message""#) && !streamed.contains("event: message"))
            try await store.revokeAlertApp(id: home.anna.id, as: home.annaActor, by: "test")
            #expect(await anna.read(for: 5) { $0.hasSuffix("0\r\n\r\n") }.hasSuffix("0\r\n\r\n"))
        }
    }

    @Test func anSOSStreamsToTheLinkedCaregiverAndItsButtonAcknowledgesIt() async throws {
        try await RunningHub.with { port, store, _, _ in
            let home = try await Household(store)
            let anna = try RawConnection(port: port)
            let piotr = try RawConnection(port: port)
            defer { anna.close(); piotr.close() }
            for (connection, auth) in [(anna, home.annaAuth), (piotr, home.piotrAuth)] {
                try connection.send("GET /ntfy/alerts/json?since=none HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAuthorization: Basic \(auth)\r\n\r\n")
                #expect(await connection.read(for: 5) { $0.contains(#""event":"open""#) }.contains("application/x-ndjson"))
            }
            let sos = try await store.raiseSOS(for: home.zosia.id, as: PermissionPolicy.Actor(personId: home.zosia.id, role: .senior), by: "test")
            let streamed = await anna.read(for: 5) { $0.contains(#""event":"message""#) && $0.unicodeScalars.last == "\n" }
            // Chunked: each JSON line sits between chunk sizes and CRLFs.
            let line = try #require(streamed.unicodeScalars.split(separator: "\n").map { String($0).trimmingCharacters(in: .whitespacesAndNewlines) }
                .first { $0.hasPrefix("{") && $0.contains(#""event":"message""#) }, "\(streamed.debugDescription)")
            let message = try JSONDecoder().decode(JSONValue.self, from: Data(line.utf8))
            #expect(message.field("priority") == .number(5) && message.field("sequence_id") == .string(sos.id.text))
            guard case .array(let actions)? = message.field("actions"),
                  case .string(let url)? = actions.last?.field("url") else { Issue.record("no buttons: \(line)"); return }
            #expect(url.hasPrefix("http://127.0.0.1:\(port)/ntfy/actions/\(sos.id.text)/acknowledge/"))

            // The button, as the app presses it: a POST with no credentials at all.
            let press = try RawConnection(port: port)
            let path = String(url.dropFirst("http://127.0.0.1:\(port)".count))
            try press.send("POST \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            #expect(await press.readUntilClosed(for: 5).hasPrefix("HTTP/1.1 200"))
            let acknowledged = try await store.alert(id: sos.id)
            expectEqual(acknowledged?.acknowledgedBy, home.annaActor.personId)
            #expect(await anna.read(for: 5) { $0.contains(#""event":"message_clear""#) }.contains(sos.id.text))
            // A link bent to another alert does nothing.
            let other = try await store.raiseSOS(for: home.zosia.id, as: PermissionPolicy.Actor(personId: home.zosia.id, role: .senior), by: "test")
            let bent = try RawConnection(port: port)
            try bent.send("POST \(path.replacingOccurrences(of: sos.id.text, with: other.id.text)) HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            #expect(await bent.readUntilClosed(for: 5).hasPrefix("HTTP/1.1 404"))
            try await expectEqual(store.alert(id: other.id)?.isOpen, true)

            // Piotr does not look after Zosia: his stream carried nothing of her.
            #expect(await !piotr.read(for: 0.3) { _ in false }.contains("Zosia"))
            // Revoked, Anna's stream ends at once; Piotr's goes on until his is.
            try await store.revokeAlertApp(id: home.anna.id, as: home.annaActor, by: "test")
            // The response ends (the last chunk); the app then reconnects and is refused.
            #expect(await anna.read(for: 5) { $0.hasSuffix("0\r\n\r\n") }.hasSuffix("0\r\n\r\n"))
            #expect(try await Self.get(port, "/ntfy/alerts/json", auth: home.annaAuth).hasPrefix("HTTP/1.1 401"))
            let piotrApp = try #require(try await store.alertApps(visibleTo: PermissionPolicy.Actor(personId: UUID.random(), role: .admin))
                .first { $0.name == "Piotr's phone" })
            try await store.revokeAlertApp(id: piotrApp.id, as: PermissionPolicy.Actor(personId: UUID.random(), role: .admin), by: "test")
            #expect(await piotr.read(for: 5) { $0.hasSuffix("0\r\n\r\n") }.hasSuffix("0\r\n\r\n"))
        }
    }
}
