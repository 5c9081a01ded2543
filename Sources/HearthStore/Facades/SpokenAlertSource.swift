import Foundation
import HearthCore

/// What the hub's voice needs of the store: the alerts as they change (a
/// subscription from a cursor), the household's language and quiet hours,
/// a senior's chosen voice, and the hub's time. `HearthStore` is it.
public protocol SpokenAlertSource: Sendable {
    func currentTime() -> Date
    func household() async throws -> Household?
    func latestSeq() async throws -> Int64
    func displaySettings(of personId: UUID, visibleTo actor: PermissionPolicy.Actor) async throws -> ChosenDisplaySettings
    func subscribe(after cursor: Int64, bufferLimit: Int, where isVisible: @escaping @Sendable (Change) -> Bool) async throws
        -> ChangeSubscription
}

extension HearthStore: SpokenAlertSource {}
