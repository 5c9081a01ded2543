import Foundation
import HearthCore
import HearthQR
import HearthStore
import Hummingbird

/// `/api/v1/pairing/invitations`: a pairing code made from a page, shown as
/// a QR code on screen — the senior's tablet showing a code that a
/// caregiver's phone scans, which the senior-care study found worked best.
struct InvitationsController {
    let store: HearthStore
    /// The hub's own address for the code's link (ServerSettings.pairingURL).
    let pairingURL: @Sendable (_ secret: String) -> String?
    /// Whether a device a senior's code pairs waits for an admin's approval.
    var seniorInvitesNeedApproval = true

    struct NewPerson: Decodable {
        var name: String
        var role: Person.Role
    }

    struct Request: Decodable {
        var personId: UUID?
        var newPerson: NewPerson?
        var deviceName: String?
    }

    struct Invitation: ResponseEncodable {
        var id: String
        var url: String
        var shortCode: String
        var expiresAt: Date
        var personName: String
        var role: String
        /// The URL as a QR code, drawn by the same encoder as `hearth pair`.
        var svg: String
    }

    struct Status: ResponseEncodable {
        var status: String
        var deviceName: String?
        var personName: String?
        var role: String?
    }

    /// Who the code is for. Whether the caller may make it is the permission
    /// policy's, decided in the store's transaction (`.pairing`): admins
    /// invite anyone, or someone new; a senior, a device for a caregiver who
    /// looks after them — never an admin's.
    func invitee(for body: Request) throws -> PairingInvitee {
        switch (body.personId, body.newPerson) {
        case (let id?, nil):
            return .person(id)
        case (nil, let newPerson?):
            return .newPerson(name: newPerson.name, role: newPerson.role)
        default:
            throw HearthError.invalid(fields: ["personId": "send either personId or newPerson"])
        }
    }

    func addRoutes(to api: RouterGroup<HearthRequestContext>) {
        let invitations = api.group(.invitations)
        invitations.post { request, context -> Response in
            let actor = try context.requirePaired()
            let body = try await request.decode(as: Request.self, context: context)
            let invitation = try await store.createPairing(
                for: try invitee(for: body), deviceName: body.deviceName, by: context.caller.origin, maker: actor,
                seniorInvitesNeedApproval: seniorInvitesNeedApproval)
            // The hub's own LAN address, as `hearth pair` prints it: the Host
            // header is whatever the page sent, and a link to another host
            // would hand the code's secret to it. Only a hub that is not
            // listening (the router in tests) has no address of its own.
            let url = pairingURL(invitation.code.secret) ?? "http://localhost/pair#\(invitation.code.secret)"
            let svg = SVGQR.render(try QRCode(encoding: url), title: "Pairing code for \(invitation.personName)")
            let response = Invitation(
                id: invitation.id.text, url: url, shortCode: invitation.code.displayedShortCode,
                expiresAt: invitation.expiresAt, personName: invitation.personName, role: invitation.role.rawValue, svg: svg)
            var encoded = try context.responseEncoder.encode(response, from: request, context: context)
            encoded.status = .created
            encoded.headers[.cacheControl] = "no-store"
            return encoded
        }
        invitations.get("{id}") { _, context -> Status in
            try context.requirePaired()
            guard let id = context.parameters.get("id").flatMap(UUID.init(text:)),
                  let createdBy = try await store.pairingCreator(id: id), createdBy == context.caller.origin
            else { throw HearthError.notFound(what: "That pairing code") }
            switch try await store.pairingStatus(id: id) {
            case .waiting: return Status(status: "waiting")
            case .paired(let deviceName, let personName, let role):
                return Status(status: "paired", deviceName: deviceName, personName: personName, role: role.rawValue)
            case .expired, .burned: return Status(status: "expired")
            }
        }
    }
}
