import Foundation
import HearthCore
import HearthStore
import Hummingbird

/// `POST /api/v1/pairing`: a device exchanges a pairing code for its token.
/// Open to unpaired callers (that is its point), so it is rate-limited per
/// client address, and every refusal looks the same.
struct PairingController {
    let store: HearthStore
    let limiter: AttemptLimiter
    /// Wrong typed codes, per address, with back-off; codes are never burned by guessing.
    var backOff = WrongCodeBackOff()

    struct Exchange: Decodable {
        /// The secret from the QR code's URL fragment…
        var code: String?
        /// …or the `XXXX-XXXX` code typed by hand.
        var shortCode: String?
        /// The name the person chose for this device…
        var deviceName: String?
        /// …or the page's own guess ("Phone"), which gives way to the name
        /// the code was made with (`hearth pair --device-name`).
        var suggestedDeviceName: String?
    }

    struct Paired: ResponseEncodable {
        struct DeviceBody: Codable { var id: String; var name: String }
        struct PersonBody: Codable { var id: String; var name: String; var role: String }
        var device: DeviceBody
        var person: PersonBody
        /// Shown once; apps keep it and send it as `Authorization: Bearer`.
        var token: String
    }

    func addRoutes(to api: RouterGroup<HearthRequestContext>) {
        let pairing = api.group(.pairing)
        pairing.post { request, context -> Response in
            if let wait = limiter.attempt(from: context.remoteAddress ?? "local") {
                var response = ProblemDetails(status: .tooManyRequests, slug: "rate-limited",
                                              detail: "Too many pairing attempts; try again in \(wait) seconds").response()
                response.headers[.retryAfter] = String(wait)
                return response
            }
            let exchange = try await request.decode(as: Exchange.self, context: context)
            let presented: PresentedPairingCode
            switch (exchange.code, exchange.shortCode) {
            case (let code?, nil): presented = .secret(code)
            case (nil, let short?): presented = .shortCode(short)
            default:
                throw HearthError.invalid(fields: ["code": "send either code (from the QR code) or shortCode (typed), not both"])
            }
            let address = context.remoteAddress ?? "local"
            let typed = if case .shortCode = presented { true } else { false }
            if typed, let wait = backOff.wait(for: address) {
                var response = ProblemDetails(status: .tooManyRequests, slug: "rate-limited",
                                              detail: "Too many wrong pairing codes; try again in \(wait) seconds").response()
                response.headers[.retryAfter] = String(wait)
                return response
            }
            let paired: PairedDevice
            let token: String
            do {
                (paired, token) = try await store.redeemPairing(
                    presented, deviceName: exchange.deviceName, suggestedDeviceName: exchange.suggestedDeviceName,
                    userAgent: request.headers[.userAgent].map { String($0.prefix(200)) })
            } catch let refusal as HearthError {
                if typed, case .notFound = refusal { backOff.wrong(from: address) }
                throw refusal
            }
            backOff.right(from: address)
            context.logger.notice("device paired", metadata: [
                "device": "\(paired.device.id.text)", "person": "\(paired.person.id.text)", "role": "\(paired.person.role.rawValue)",
            ])
            let body = Paired(
                device: .init(id: paired.device.id.text, name: paired.device.name),
                person: .init(id: paired.person.id.text, name: paired.person.name, role: paired.person.role.rawValue),
                token: token)
            var response = try context.responseEncoder.encode(body, from: request, context: context)
            response.status = .created
            response.setCookie(DeviceToken.cookie(for: token))
            response.headers[.cacheControl] = "no-store"
            return response
        }
    }
}
