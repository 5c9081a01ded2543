import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HearthCore
import HearthHubTestSupport
import HearthStore
import HearthTestSupport
import Testing

/// A live hub on a loopback port with a real SQLite file, and the Kowalski
/// household on it: Babcia (a senior, with a tablet), Ania (her caregiver,
/// with a phone) and the admin's laptop. Web edits go through the hub's HTTP
/// API, as a browser's would.
struct LoopbackHousehold: Sendable {
    let port: Int
    let store: HearthStore
    let admin: String
    let senior: String
    let caregiver: String
    let seniorId: UUID
    let zone = TimeZone(identifier: "Europe/Warsaw") ?? .gmt

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)/")! }

    static func with(_ body: @escaping @Sendable (LoopbackHousehold) async throws -> Void) async throws {
        try await RunningHub.with { port, store, _, admin in
            let senior = try await device(store, "Babcia", .senior)
            let caregiver = try await device(store, "Ania", .caregiver)
            let seniorId = try #require(try await store.person(named: "Babcia")?.id)
            let caregiverId = try #require(try await store.person(named: "Ania")?.id)
            let adminId = try #require(try await store.person(named: "Admin")?.id)
            try await store.link(caregiver: caregiverId, senior: seniorId, as: .hubTerminal, by: "test")
            try await store.link(caregiver: adminId, senior: seniorId, as: .hubTerminal, by: "test")
            try await body(LoopbackHousehold(port: port, store: store, admin: admin, senior: senior, caregiver: caregiver, seniorId: seniorId))
        }
    }

    static func device(_ store: HearthStore, _ name: String, _ role: Person.Role) async throws -> String {
        let invitation = try await store.createPairing(for: .newPerson(name: name, role: role), deviceName: nil, by: "test", maker: .hubTerminal)
        return try await store.redeemPairing(.secret(invitation.code.secret), deviceName: "\(name)'s device", userAgent: nil).1
    }

    /// A request as a browser on the home network makes it; the reply's JSON.
    @discardableResult
    func call(_ method: String, _ path: String, as token: String, body: String? = nil, expect status: Int = 200) async throws -> JSONValue {
        var request = URLRequest(url: URL(string: path, relativeTo: baseURL)!)
        request.httpMethod = method
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        if let body {
            request.httpBody = Data(body.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        let code = (response as? HTTPURLResponse)?.statusCode ?? 0
        expectEqual(code, status, "\(method) \(path): \(String(decoding: data, as: UTF8.self))")
        return data.isEmpty ? .null : try JSONText.value(from: data)
    }

    /// A medication of Babcia's planned at `time` daily; its id.
    func addMedication(name: String, stock: Double = 10, time: String) async throws -> UUID {
        let created = try await call("POST", "/api/v1/medications", as: caregiver, body: """
            {"personId": "\(seniorId.uuidString.lowercased())", "name": "\(name)", "stock": \(stock), "packageSize": 30,
             "schedules": [{"kind": "weekly", "times": ["\(time)"], "amount": 1}]}
            """, expect: 201)
        return try #require(created.field("id").flatMap { if case .string(let id) = $0 { UUID(uuidString: id) } else { nil } })
    }

    func medication(_ id: UUID) async throws -> JSONValue {
        try await call("GET", "/api/v1/medications/\(id.uuidString.lowercased())", as: caregiver)
    }

    func note(_ id: UUID) async throws -> JSONValue {
        try await call("GET", "/api/v1/notes/\(id.uuidString.lowercased())", as: senior)
    }

    /// The household's wall clock an hour from now: a dose planned then is
    /// still to come, yet close enough to be answered.
    func inAnHour() -> (date: LocalDate, time: String) {
        let soon = Date().addingTimeInterval(3600)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.hour, .minute], from: soon)
        return (LocalDate(soon, in: zone), String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0))
    }
}
