import Foundation
import HearthCore
@testable import HearthServer
import HearthStore
import HTTPTypes
import Hummingbird
import HearthHubTestSupport
import HearthTestSupport
import Testing

/// A household for the care routes, on a real store in a temporary
/// directory: Babcia (a senior), Ania (her caregiver), Obcy (a caregiver not
/// linked to her) and the admin, each with a paired device.
struct CareHousehold: Sendable {
    let client: PairedClient
    let store: HearthStore
    let seniorId: UUID
    let caregiverId: UUID
    /// Device tokens.
    let senior: String
    let caregiver: String
    let stranger: String

    /// What a response said: its status, its JSON body and its Location.
    struct Reply: Sendable {
        var status: HTTPResponse.Status
        var body: JSONValue?
        var location: String?
        /// The hub's time as the answer says it (`Hearth-Time`, ms since 1970).
        var hubTime: Date?

        /// A field of an object body.
        subscript(_ name: String) -> JSONValue? { body?.field(name) }

        /// The field names of a validation problem's per-field messages.
        var invalidFields: Set<String> {
            guard case .object(let errors)? = self["errors"] else { return [] }
            return Set(errors.keys)
        }

        var list: [JSONValue] {
            if case .array(let items)? = body { return items }
            return []
        }
    }

    static func with(_ body: @escaping @Sendable (CareHousehold) async throws -> Void) async throws {
        try await RouteTests.withRouter { client, store in
            let senior = try await NotesRouteTests.device(store, "Babcia", .senior)
            let caregiver = try await NotesRouteTests.device(store, "Ania", .caregiver)
            let stranger = try await NotesRouteTests.device(store, "Obcy", .caregiver)
            let seniorId = try #require(try await store.person(named: "Babcia")?.id)
            let caregiverId = try #require(try await store.person(named: "Ania")?.id)
            try await store.link(caregiver: caregiverId, senior: seniorId, as: .hubTerminal, by: "test")
            try await body(CareHousehold(client: client, store: store, seniorId: seniorId, caregiverId: caregiverId,
                                         senior: senior, caregiver: caregiver, stranger: stranger))
        }
    }

    /// A request from the device holding `token` (the admin's when nil).
    func call(_ method: HTTPRequest.Method, _ uri: String, as token: String? = nil, body: String? = nil) async throws -> Reply {
        var headers: HTTPFields = body == nil ? [:] : [.contentType: "application/json"]
        if let token { headers[.authorization] = "Bearer \(token)" }
        return try await client.execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) }) { response in
            Reply(status: response.status, body: try? JSONDecoder().decode(JSONValue.self, from: Data(buffer: response.body)),
                  location: response.headers[.location],
                  hubTime: response.headers[HTTPField.Name("Hearth-Time")!].flatMap(Int64.init).map(Date.init(millisecondsSince1970:)))
        }
    }

    /// Adds a medication for Babcia as Ania, with one schedule given as JSON.
    func addMedication(name: String = "Metformina", stock: Double? = nil, schedule: String) async throws -> String {
        let stockField = stock.map { #", "stock": \#($0), "packageSize": 30"# } ?? ""
        let reply = try await call(.post, "/api/v1/medications", as: caregiver, body: """
            {"personId": "\(seniorId.text)", "name": "\(name)"\(stockField), "schedules": [\(schedule)]}
            """)
        expectEqual(reply.status, .created, "\(String(describing: reply.body))")
        return try #require(reply["id"]?.text)
    }

    /// A medication planned an hour from now, with 10 on hand; the key of
    /// its dose as Today lists it.
    func doseInAnHour() async throws -> String {
        let soon = Self.inAnHour()
        _ = try await addMedication(stock: 10, schedule: #"{"kind": "weekly", "times": ["\#(soon.time)"], "amount": 1}"#)
        let today = try await call(.get, "/api/v1/today?date=\(soon.date)", as: caregiver)
        guard case .array(let people)? = today["people"], case .array(let doses)? = people.first?.field("doses") else {
            throw HearthError.notFound(what: "The planned dose")
        }
        return try #require(doses.first?.field("key")?.text)
    }

    /// The household's wall clock an hour from now: a dose planned then is
    /// still to come, yet close enough to be answered.
    static func inAnHour() -> (date: LocalDate, time: String) {
        let zone = TimeZone(identifier: "Europe/Warsaw") ?? .gmt
        let soon = Date().addingTimeInterval(3600)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.hour, .minute], from: soon)
        return (LocalDate(soon, in: zone), String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0))
    }
}

extension JSONValue {
    var text: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    var number: Double? {
        if case .number(let number) = self { return number }
        return nil
    }
}
