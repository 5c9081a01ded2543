import Foundation
import HearthCore
import Testing

@Suite struct HouseholdTests {
    @Test func namesAreTrimmedAndChecked() throws {
        #expect(try Household.validatedName("  Kowalski family ") == "Kowalski family")
        #expect(try Household.validatedName("Dom Zielińskich") == "Dom Zielińskich")
        #expect(throws: HearthError.invalid(fields: ["name": "must not be empty"])) { try Household.validatedName(" \n ") }
        #expect(throws: HearthError.self) { try Household.validatedName(String(repeating: "a", count: 101)) }
        #expect(throws: HearthError.self) { try Household.validatedName("Home\u{7}") }
    }

    @Test func timeZonesMustBeKnownIANANames() throws {
        #expect(try Household.validatedTimeZone("Europe/Warsaw") == "Europe/Warsaw")
        #expect(try Household.validatedTimeZone("America/New_York") == "America/New_York")
        #expect(throws: HearthError.self) { try Household.validatedTimeZone("Mars/Base") }
        #expect(throws: HearthError.self) { try Household.validatedTimeZone("") }
    }

    @Test func errorsReadAsOneLine() {
        let error = HearthError.invalid(fields: ["timeZone": "is unknown", "name": "must not be empty"])
        #expect(error.description == "Invalid input: name must not be empty; timeZone is unknown")
        #expect(!HearthError.cursorAhead(requested: 9, latest: 3).description.contains("\n"))
    }
}
