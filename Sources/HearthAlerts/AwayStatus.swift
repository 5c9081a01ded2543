import Foundation
import HearthCore

/// How the hub's channels away from home are doing, for health and the
/// Household page: the last text handed to the modem, what stops texts
/// now, and this month's count against the limit.
public final class AwayStatus: Sendable {
    public struct Summary: Sendable, Encodable, Equatable {
        public var smsEnabled: Bool
        public var lastText: Date?
        /// Why texts cannot go now ("gammu-smsd-inject is not installed"); nil when the last one went.
        public var smsProblem: String?
        public var textsThisMonth: Int
        public var monthlyLimit: Int
    }

    private let state: Locked<Summary>

    public init(sms: SMSSettings) {
        state = Locked(Summary(smsEnabled: sms.enabled, lastText: nil, smsProblem: nil, textsThisMonth: 0, monthlyLimit: sms.monthlyLimit))
    }

    public var summary: Summary { state.withLock { $0 } }

    func texted(at time: Date) {
        state.withLock {
            $0.lastText = time
            $0.smsProblem = nil
        }
    }

    /// Returns true when this is news: the first failure after texts went
    /// (or ever), so admins are told once, not at every retry.
    func textFailed(_ problem: String) -> Bool {
        state.withLock { summary in
            defer { summary.smsProblem = problem }
            return summary.smsProblem == nil
        }
    }

    /// Returns true the first time this month's count reaches the warning.
    func counted(_ texts: Int, warningAt: Int) -> Bool {
        state.withLock { summary in
            defer { summary.textsThisMonth = texts }
            return texts >= warningAt && summary.textsThisMonth < warningAt
        }
    }
}
