import Foundation
import HearthAlerts
import HearthCore
import HearthStore
import HearthTestSupport
import Testing

/// A notification's button acts on one alert, for one credential, and on nothing else.
struct AlertActionLinkTests {
    @Test func aLinkIsSignedByItsCredentialAndCannotBeBentToAnotherAlertOrAnswer() async throws {
        let home = try await AlertHome()
        let (_, anna) = try await home.app(for: home.anna)
        let (_, other) = try await home.app(for: home.anna, name: "tablet")
        let alert = UUID.random()
        let link = AlertActionLink(alertId: alert, answer: .acknowledge, signedBy: anna)
        let parts = link.path().split(separator: "/").map(String.init)
        #expect(parts.count == 5 && parts[0] == "ntfy" && parts[1] == "actions")
        let read = try #require(AlertActionLink(alertId: parts[2], answer: parts[3], capability: parts[4]))
        #expect(read == link && read.isSigned(by: anna))
        #expect(!read.isSigned(by: other))
        expectEqual(AlertActionLink(alertId: UUID.random().text, answer: parts[3], capability: parts[4])?.isSigned(by: anna), false)
        expectEqual(AlertActionLink(alertId: parts[2], answer: "respond", capability: parts[4])?.isSigned(by: anna), false)
        for wrong in ["", "x.y", parts[4] + "A", anna.app.id.text + "." + String(repeating: "A", count: 43)] {
            #expect(AlertActionLink(alertId: parts[2], answer: parts[3], capability: wrong)?.isSigned(by: anna) != true)
        }
        #expect(AlertActionLink(alertId: parts[2], answer: "delete", capability: parts[4]) == nil)
    }

    @Test func aCredentialSignsInOnlyWithItsOwnPasswordAndNeverAfterRevoking() async throws {
        let home = try await AlertHome()
        let actor = try await home.actor(home.anna)
        let (app, password) = try await home.store.createAlertApp(name: "Anna's phone", as: actor, by: "test")
        #expect(app.username.hasPrefix("hearth-"))
        try await expectEqual(home.store.alertAppSignIn(username: app.username, password: password)?.actor, actor)
        #expect(try await home.store.alertAppSignIn(username: app.username, password: password + "x") == nil)
        #expect(try await home.store.alertAppSignIn(username: "hearth-nobody", password: password) == nil)
        // Piotr sees neither Anna's credential nor may he revoke it.
        #expect(try await home.store.alertApps(visibleTo: try await home.actor(home.piotr)).isEmpty)
        await #expect(throws: HearthError.notFound(what: "That alert app")) {
            try await home.store.revokeAlertApp(id: app.id, as: try await home.actor(home.piotr), by: "test")
        }
        try await expectEqual(home.store.alertApps(visibleTo: actor).map(\.id), [app.id])
        try await home.store.revokeAlertApp(id: app.id, as: actor, by: "test")
        #expect(try await home.store.alertAppSignIn(username: app.username, password: password) == nil)
        #expect(try await home.store.alertApps(visibleTo: actor).isEmpty)
    }
}
