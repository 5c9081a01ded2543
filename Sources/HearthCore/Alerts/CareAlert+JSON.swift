import Foundation

extension CareAlert {
    /// An alert read back from its JSON shape (`json`), as the change log
    /// keeps it: what the alert was when that change was committed. nil
    /// when the shape is not an alert's.
    public init?(json: JSONValue) {
        func text(_ field: String) -> String? {
            if case .string(let value)? = json.field(field) { value } else { nil }
        }
        func uuid(_ field: String) -> UUID? { text(field).flatMap(UUID.init(text:)) }
        func date(_ field: String) -> Date? { text(field).flatMap(ISOTime.date(from:)) }
        guard let id = uuid("id"), let kind = text("kind").flatMap(Kind.init(rawValue:)),
              let audience = text("audience").flatMap(Audience.init(rawValue:)), let raisedAt = date("raisedAt")
        else { return nil }
        let repeats: Int = if case .number(let count)? = json.field("repeats") { Int(count) } else { 0 }
        self.init(id: id, kind: kind, audience: audience, personId: uuid("personId"), doseId: uuid("doseId"),
                  medicationId: uuid("medicationId"), raisedBy: text("raisedBy") ?? "", raisedAt: raisedAt,
                  notifiedAt: date("notifiedAt"), repeats: repeats, details: json.field("details") ?? [:],
                  acknowledgedAt: date("acknowledgedAt"), acknowledgedBy: uuid("acknowledgedBy"),
                  respondedAt: date("respondedAt"), respondedBy: uuid("respondedBy"), resolvedAt: date("resolvedAt"))
    }
}
