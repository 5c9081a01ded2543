import Foundation

/// Someone outside the household (a neighbour, a friend nearby) whom the hub
/// texts when an SOS is not answered in time. Kept by the household's admins.
public struct EmergencyContact: Hashable, Sendable, Codable {
    public var id: UUID
    public var name: String
    public var phone: String

    public init(id: UUID, name: String, phone: String) {
        self.id = id
        self.name = name
        self.phone = phone
    }

    /// At most this many: texts cost money, and a long list is one nobody keeps up to date.
    public static let maximumCount = 5

    /// The list as an admin sent it, each name and number checked; a problem
    /// names its place (`[1].phone`), and nothing is kept of a list with one.
    public static func validatedList(_ entries: [(name: String, phone: String)]) throws(HearthError) -> [EmergencyContact] {
        guard entries.count <= maximumCount else {
            throw .invalid(fields: ["emergencyContacts": "at most \(maximumCount) contacts"])
        }
        var problems: [String: String] = [:]
        var contacts: [EmergencyContact] = []
        for (index, entry) in entries.enumerated() {
            let name = entry.name.trimmingCharacters(in: .whitespacesAndNewlines)
            if name.isEmpty || name.count > 80 || name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                problems["[\(index)].name"] = "must be 1 to 80 characters, no control characters"
            }
            do {
                guard let phone = try PhoneNumber.validated(entry.phone, field: "[\(index)].phone") else {
                    problems["[\(index)].phone"] = "must not be empty"
                    continue
                }
                contacts.append(EmergencyContact(id: UUID.random(), name: name, phone: phone))
            } catch {
                if case .invalid(let fields) = error { problems.merge(fields) { first, _ in first } }
            }
        }
        if !problems.isEmpty { throw .invalid(fields: problems) }
        return contacts
    }
}
