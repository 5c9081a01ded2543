import Foundation
import HearthAlerts
import HearthCore
import HearthQR
import HearthStore
import Hummingbird

/// `/api/v1/alert-apps`: the credentials a person gives the ntfy app on
/// their phone. Made by the person's own paired device; the password is
/// in the answer once and never again. `POST /api/v1/alert-apps/test`
/// sends a test through every channel that reaches the person.
struct AlertAppsController {
    let store: HearthStore
    let channels: AlertChannels
    var streams: AlertStreams { channels.streams }
    /// `http://<LAN address>:<port>`, the address a phone types in (never
    /// `.local`: Android does not resolve mDNS names everywhere); nil
    /// before the hub listens.
    let hubAddress: @Sendable () -> String?

    struct NewAlertApp: Decodable {
        var name: String
    }

    struct AlertAppBody: ResponseEncodable {
        struct Topic: Encodable {
            var name: String
            var includes: [String]
        }
        var id: String
        var personId: String
        var name: String
        var username: String
        /// Only when it was just made.
        var password: String?
        /// What to type as the server in the app.
        var server: String
        /// The server address as a QR code (SVGQR), for a phone's camera to
        /// read and copy; the same drawing the pairing page reads back.
        var svg: String?
        var topics: [Topic]
        var createdAt: Date
        var lastSeenAt: Date?

        init(_ app: AlertApp, password: String? = nil, server: String) {
            id = app.id.text
            personId = app.personId.text
            name = app.name
            username = app.username
            self.password = password
            self.server = server
            svg = try? SVGQR.render(QRCode(encoding: server), title: "Hearth alerts server: \(server)")
            topics = AlertTopic.allCases.map { topic in
                Topic(name: topic.rawValue, includes: CareAlert.Kind.allCases.filter(topic.includes).map(\.rawValue))
            }
            createdAt = app.createdAt
            lastSeenAt = app.lastSeenAt
        }
    }

    struct TestBody: ResponseEncodable {
        struct Channel: Encodable {
            var channel: String
            var recipient: String
            var at: Date
        }
        var messageId: String
        /// Alert apps the test was handed to, and those that wrote it out.
        var sentTo: [String]
        var delivered: [Channel]
    }

    func addRoutes(to api: RouterGroup<HearthRequestContext>) {
        let apps = api.group(.alertApps)
        apps.get { request, context -> [AlertAppBody] in
            let actor = try context.requirePaired()
            let server = server(for: request)
            return try await store.alertApps(visibleTo: actor).map { AlertAppBody($0, server: server) }
        }
        apps.post { request, context -> EditedResponse<AlertAppBody> in
            let actor = try context.requirePaired()
            let body = try await request.decode(as: NewAlertApp.self, context: context)
            let (app, password) = try await store.createAlertApp(name: body.name, as: actor, by: context.caller.origin)
            // The password is in this answer only: nothing on the way may keep it.
            return EditedResponse(status: .created, headers: [.location: APIPath.link(.alertApps, app.id), .cacheControl: "no-store"],
                                  response: AlertAppBody(app, password: password, server: server(for: request)))
        }
        apps.delete("{id}") { _, context -> Response in
            let actor = try context.requirePaired()
            let id = try CareQuery.id(in: context, what: "That alert app")
            try await store.revokeAlertApp(id: id, as: actor, by: context.caller.origin)
            return Response(status: .noContent)
        }
        apps.post("test") { _, context -> TestBody in
            let actor = try context.requirePaired()
            guard let person = try await store.person(id: actor.personId) else { throw HearthError.unpaired }
            var (id, sentTo) = try await streams.sendTest(to: person)
            // Shown on this person's open pages too (each written at once, so delivered when listed).
            let wording = AlertWording(try await store.household())
            sentTo += await channels.pages.sendTest(to: person.id, messageId: id, title: wording.testTitle,
                                                    message: wording.testMessage(for: person.name))
            // The hub's voice is the senior's own channel: a caregiver's test
            // at night does not wake the house.
            if person.role == .senior, let voice = channels.voice {
                sentTo.append("speaker")
                await voice.sayTest(wording.testMessage(for: person.name), to: person.id, messageId: id)
            }
            // Give the streams a moment to write it out (a phone on Wi-Fi takes
            // milliseconds) and the speaker to say it (a few seconds).
            var delivered = streams.deliveries.deliveries(ofMessage: id)
            let deadline = ContinuousClock.now + .seconds(sentTo.contains("speaker") ? 10 : 2)
            while delivered.count < sentTo.count, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
                delivered = streams.deliveries.deliveries(ofMessage: id)
            }
            return TestBody(messageId: id, sentTo: sentTo,
                            delivered: delivered.map { .init(channel: $0.channel.rawValue, recipient: $0.recipientName, at: $0.at) })
        }
    }

    func server(for request: Request) -> String {
        (hubAddress() ?? NtfyController.origin(of: request)) + NtfyController.root
    }
}
