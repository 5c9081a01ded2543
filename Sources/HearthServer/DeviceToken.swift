import Hummingbird

/// Where a device's token travels: `Authorization: Bearer` for apps, the
/// `hearth_device` cookie (HttpOnly, SameSite=Strict) for browsers.
enum DeviceToken {
    static let cookieName = "hearth_device"
    /// Ten years: a paired kitchen tablet should not need pairing again.
    static let cookieLifetime = 10 * 365 * 24 * 60 * 60

    /// The token a request carries, and whether it came as a cookie.
    static func presented(in request: Request) -> (token: String, viaCookie: Bool)? {
        if let authorization = request.headers[.authorization] {
            let parts = authorization.split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "bearer" {
                return (HTTPText.trimmed(parts[1]), false)
            }
        }
        if let token = request.cookies[cookieName]?.value, !token.isEmpty {
            return (token, true)
        }
        return nil
    }

    static func cookie(for token: String) -> Cookie {
        Cookie(name: cookieName, value: token, maxAge: cookieLifetime, path: "/", httpOnly: true, sameSite: .strict)
    }
}
