import Foundation
import HearthCore

/// What telling caregivers away from home needs of the store: the
/// escalation ladders (each rung kept before it is sent, and marked sent
/// or not after), the month's count of texts, a caregiver's push topic, the
/// senior's phone, the household's words, the hub's time, and a ring when
/// an alert changes. `HearthStore` is it; nothing else of the store is the
/// service's to touch.
public protocol AwayLadders: Sendable {
    func currentTime() -> Date
    func household() async throws -> Household?
    func person(id: UUID) async throws -> Person?
    /// `HearthStore.climbLadders`: what is due now, kept as waiting before it is handed back.
    func climbLadders(at now: Date, channels: Set<EscalationLadder.Channel>, settings chosen: EscalationSettings?,
                      quietHours: QuietHours?, monthlyLimit: Int) async throws -> AwayPass
    func awayMessageSent(_ id: UUID, at time: Date) async throws
    func awayMessageNotSent(_ id: UUID, problem: String, retryAt: Date?) async throws
    func textsSent(since start: Date) async throws -> Int
    func pushTopic(of personId: UUID) async throws -> String?
    func ringOnChanges(_ signal: WakeSignal, subscribedTo visible: @escaping @Sendable (Change) -> Bool,
                       ringing rings: (Change) -> Bool) async
}

extension HearthStore: AwayLadders {}
