import Foundation
import HearthCore
@testable import HearthKit
import HearthTestSupport
import Testing

/// What a caregiver's app keeps follows whom she looks after: HearthKit
/// starts her mirror again from a snapshot when that changes.
@Suite struct CareCircleMirrorTests {
    @Test func aCaregiverUnlinkedFromTheSeniorKeepsNothingOfHersAndLinkedAgainGetsItAll() async throws {
        try await LoopbackHousehold.with { home in
            let medication = try await home.addMedication(name: "Metformina", time: "08:00")
            let ania = try HearthKitSyncTests.client(home, home.caregiver)
            try await ania.sync()
            try await expectEqual(ania.mirror.medications().map(\.id), [medication])

            // When: the admin unlinks her from Babcia; nothing of Babcia's changes after.
            let anias = try #require(try await home.store.person(named: "Ania")?.id)
            try await home.store.removeCareLink(caregiver: anias, senior: home.seniorId, as: .hubTerminal, by: "test")
            try await ania.sync()
            // Then: her app holds none of Babcia's medicines.
            #expect(try await ania.mirror.medications().isEmpty)

            // Linked again: what was there all along arrives, unchanged since.
            try await home.store.link(caregiver: anias, senior: home.seniorId, as: .hubTerminal, by: "test")
            try await ania.sync()
            try await expectEqual(ania.mirror.medications().map(\.id), [medication])
        }
    }
}
