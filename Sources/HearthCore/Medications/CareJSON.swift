import Foundation

/// The JSON shapes of medications, schedules, doses and alerts. One shape
/// each, used both in API responses and in the live stream's change
/// payloads, so a page can apply a live change exactly as it reads a list.
extension JSONValue {
    public static func of(_ id: UUID?) -> JSONValue { id.map { .string($0.text) } ?? .null }
    public static func of(_ date: Date?) -> JSONValue {
        date.map { .string(ISOTime.text($0)) } ?? .null
    }
    public static func of(_ number: Double?) -> JSONValue { number.map { .number($0) } ?? .null }
    public static func of(_ text: String?) -> JSONValue { text.map { .string($0) } ?? .null }
}

extension Medication {
    public var json: JSONValue {
        [
            "id": .of(id), "personId": .of(personId), "name": .string(name), "strength": .string(strength),
            "unit": .string(unit), "form": .string(form), "instructions": .string(instructions),
            "appearance": .string(appearance), "stock": .of(stock), "packageSize": .of(packageSize),
            "lowStockDays": .of(lowStockDays.map(Double.init)), "active": .bool(active),
            "revision": .number(Double(revision)), "createdAt": .of(createdAt), "updatedAt": .of(updatedAt),
        ]
    }
}

extension DoseSchedule {
    /// The pattern's fields flattened beside the schedule's own.
    public var json: JSONValue {
        var fields: [String: JSONValue] = [
            "id": .of(id), "medicationId": .of(medicationId), "amount": .number(amount),
            "startDate": .string(startDate.description), "endDate": .of(endDate?.description),
        ]
        fields.merge(pattern.json) { own, _ in own }
        return .object(fields)
    }
}

extension Dose {
    public var json: JSONValue {
        [
            "id": .of(id), "key": .of(key), "medicationId": .of(medicationId), "personId": .of(personId),
            "scheduleId": .of(scheduleId), "dueAt": .of(dueAt), "plannedDate": .of(plannedDate?.description),
            "plannedTime": .of(plannedTime?.description), "amount": .number(amount), "status": .string(status.rawValue),
            "takenAt": .of(takenAt), "reason": .of(reason), "snoozedUntil": .of(snoozedUntil),
            "recordedBy": .of(recordedBy), "limitOverridden": .bool(limitOverridden), "missedAt": .of(missedAt),
            "correctedBy": .of(correctedBy), "correctedAt": .of(correctedAt),
            "createdAt": .of(createdAt), "updatedAt": .of(updatedAt),
        ]
    }
}

extension CareAlert {
    public var json: JSONValue {
        [
            "id": .of(id), "kind": .string(kind.rawValue), "audience": .string(audience.rawValue),
            "personId": .of(personId), "doseId": .of(doseId), "medicationId": .of(medicationId),
            "raisedBy": .string(raisedBy), "raisedAt": .of(raisedAt), "notifiedAt": .of(notifiedAt),
            "repeats": .number(Double(repeats)), "details": details, "open": .bool(isOpen),
            "acknowledgedAt": .of(acknowledgedAt), "acknowledgedBy": .of(acknowledgedBy),
            "respondedAt": .of(respondedAt), "respondedBy": .of(respondedBy), "resolvedAt": .of(resolvedAt),
        ]
    }
}
