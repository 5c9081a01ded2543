import Foundation
import HearthCore
import HearthTestSupport
import Testing

@Suite struct HouseholdTests {
    @Test func namesAreTrimmedAndChecked() throws {
        try expectEqual(Household.validatedName("  Kowalski family "), "Kowalski family")
        try expectEqual(Household.validatedName("Dom Zielińskich"), "Dom Zielińskich")
        #expect(throws: HearthError.invalid(fields: ["name": "must not be empty"])) { try Household.validatedName(" \n ") }
        #expect(throws: HearthError.self) { try Household.validatedName(String(repeating: "a", count: 101)) }
        #expect(throws: HearthError.self) { try Household.validatedName("Home\u{7}") }
    }

    @Test func timeZonesMustBeKnownIANANames() throws {
        try expectEqual(Household.validatedTimeZone("Europe/Warsaw"), "Europe/Warsaw")
        try expectEqual(Household.validatedTimeZone("America/New_York"), "America/New_York")
        #expect(throws: HearthError.self) { try Household.validatedTimeZone("Mars/Base") }
        #expect(throws: HearthError.self) { try Household.validatedTimeZone("") }
    }

    @Test func errorsReadAsOneLine() {
        let error = HearthError.invalid(fields: ["timeZone": "is unknown", "name": "must not be empty"])
        expectEqual(error.description, "Invalid input: name must not be empty; timeZone is unknown")
        #expect(!HearthError.cursorAhead(requested: 9, latest: 3).description.contains("\n"))
    }
}
