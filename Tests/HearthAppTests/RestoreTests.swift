import Foundation
import GRDB
import HearthCore
@testable import HearthApp
import HearthStore
import HearthTestSupport
import Testing

/// `hearth restore` puts back what a backup held, and nothing more: not a
/// phone removed since, and no SQL someone slipped into the file.
@Suite struct RestoreTests {
    static func household(in root: URL) async throws -> (configuration: HubConfiguration, store: HearthStore) {
        let data = root.appendingPathComponent("data")
        let store = try HearthStore(directory: data)
        try await store.ensureHousehold(name: "Dom", timeZone: "Europe/Warsaw")
        return (try await HubConfiguration.load(flags: .init(dataDirectory: data.path), environment: [:]), store)
    }

    @Test func aPhoneRemovedAfterTheBackupStaysRemovedWhenItIsRestored() async throws {
        let temporary = try TemporaryDirectory()
        let root = temporary.url
        let (configuration, store) = try await Self.household(in: root)
        // Given Ania's phone, paired before the backup and removed after it (it was lost)
        let code = try await store.createPairing(for: .newPerson(name: "Ania", role: .caregiver), deviceName: nil, by: "cli", maker: .hubTerminal)
        let (phone, token) = try await store.redeemPairing(.secret(code.code.secret), deviceName: "Phone", userAgent: nil)
        let backup = root.appendingPathComponent("backup.sqlite")
        try store.backup(to: backup)
        try await store.revokeDevice(id: phone.device.id, as: PermissionPolicy.Actor(personId: UUID(), role: .admin), by: "cli")
        try store.close()
        // When the backup is restored
        let said = try await HubBackup.restore(configuration, from: backup.path)
        // Then the phone is still shut out, and devices syncing hear of it
        #expect(said.contains("1 device removed since the backup stays removed"), "\(said)")
        let restored = try HearthStore(directory: root.appendingPathComponent("data"))
        defer { try? restored.close() }
        #expect(try await restored.pairedDevice(token: token) == nil)
        let revocations = try await restored.read { db in
            try String.fetchAll(db, sql: "SELECT actor FROM changes WHERE entity = 'device' AND entityId = ? AND payload LIKE '%revokedAt%'",
                                arguments: [phone.device.id.text])
        }
        expectEqual(revocations, ["restore"])
    }

    @Test func aBackupHoldingATriggerHearthDidNotMakeIsRefusedAndTheDataLeftAsItWas() async throws {
        let temporary = try TemporaryDirectory()
        let root = temporary.url
        let (configuration, store) = try await Self.household(in: root)
        _ = try await store.addPerson(name: "Babcia", role: .senior, as: .hubTerminal, by: "cli")
        let backup = root.appendingPathComponent("backup.sqlite")
        try store.backup(to: backup)
        try store.close()
        for object in ["CREATE TRIGGER wipe AFTER INSERT ON doses BEGIN DELETE FROM notes; END",
                       "CREATE VIEW everything AS SELECT * FROM notes"] {
            // Given a backup file someone added SQL to
            let tampered = root.appendingPathComponent("tampered-\(UUID().uuidString).sqlite")
            try FileManager.default.copyItem(at: backup, to: tampered)
            let queue = try DatabaseQueue(path: tampered.path)
            try await queue.write { db in try db.execute(sql: object) }
            try queue.close()
            // Then it is refused by name, and the hub's data is as it was
            #expect(throws: BackupProblem.self) { try HearthStore.verifyBackup(at: tampered) }
            do {
                _ = try await HubBackup.restore(configuration, from: tampered.path)
                Issue.record("restored a backup holding: \(object)")
            } catch let problem as BackupProblem {
                #expect("\(problem)".contains("that Hearth did not make"), "\(problem)")
            }
            #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("data/hearth.sqlite.bak").path))
        }
        // While Hearth's own triggers and views pass
        try HearthStore.verifyBackup(at: backup)
    }
}
