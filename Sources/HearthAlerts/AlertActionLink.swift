import Foundation
import HearthCore
import HearthDigest
import HearthStore

/// The link behind a notification's button: it acknowledges or answers one
/// alert, as the credential's person, and nothing else. It carries no device
/// token and no password: the credential's id and an HMAC of the alert and
/// the answer under the credential's own key, so it cannot be bent to
/// another alert, and it stops working when the credential is revoked.
///
/// `POST <origin>/ntfy/actions/<alert id>/<answer>/<credential id>.<signature>`
public struct AlertActionLink: Sendable, Equatable {
    public enum Answer: String, Sendable, CaseIterable {
        /// Close the alert on every device.
        case acknowledge
        /// "I'm on my way", to an SOS.
        case respond
    }

    public static let pathPrefix = "/ntfy/actions"

    public var alertId: UUID
    public var answer: Answer
    public var appId: UUID
    public var signature: String

    public init(alertId: UUID, answer: Answer, signedBy app: SignedInAlertApp) {
        self.alertId = alertId
        self.answer = answer
        self.appId = app.app.id
        self.signature = Self.signature(alertId: alertId, answer: answer, key: app.actionKey)
    }

    /// The link read back from its path segments; nil when it is not one.
    public init?(alertId: String, answer: String, capability: String) {
        let parts = capability.split(separator: ".", omittingEmptySubsequences: false)
        guard let alert = UUID(text: alertId), let answer = Answer(rawValue: answer), parts.count == 2,
              let app = UUID(text: String(parts[0])), parts[1].count == 43 else { return nil }
        self.alertId = alert
        self.answer = answer
        self.appId = app
        self.signature = String(parts[1])
    }

    public func path() -> String {
        "\(Self.pathPrefix)/\(alertId.text)/\(answer.rawValue)/\(appId.text).\(signature)"
    }

    /// Whether this credential signed this link.
    public func isSigned(by app: SignedInAlertApp) -> Bool {
        guard app.app.id == appId, let given = Self.bytes(base64URL: signature) else { return false }
        return HMACSHA256.isValid(given, for: Self.message(alertId, answer), key: app.actionKey)
    }

    static func message(_ alertId: UUID, _ answer: Answer) -> Data { Data("\(alertId.text):\(answer.rawValue)".utf8) }

    static func signature(alertId: UUID, answer: Answer, key: Data) -> String {
        let code = HMACSHA256.code(for: message(alertId, answer), key: key)
        return Data(code).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    static func bytes(base64URL text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }
}
