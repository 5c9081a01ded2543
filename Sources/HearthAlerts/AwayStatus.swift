import Foundation
import HearthCore

/// How the hub's channels away from home are doing, for health and the
/// Household page: the last text handed to the modem and the last push the
/// Internet server took, what stops each now, and this month's texts
/// against the limit.
public final class AwayStatus: Sendable {
    public struct Summary: Sendable, Encodable, Equatable {
        public var smsEnabled: Bool
        public var lastText: Date?
        /// Why texts cannot go now ("gammu-smsd-inject is not installed"); nil when the last one went.
        public var smsProblem: String?
        public var textsThisMonth: Int
        public var monthlyLimit: Int
        /// What gammu-smsd last said of the modem (signal, texts in and out), read every minute.
        public var modem: ModemReading?
        /// Why the modem could not be read (gammu-smsd not running).
        public var modemProblem: String?
        public var pushEnabled: Bool
        public var lastPush: Date?
        /// Why pushes cannot go now (no Internet, the server refusing); nil when the last one went.
        public var pushProblem: String?
    }

    private let state: Locked<Summary>
    /// The push server's settings when push is on, for her topic's URL; nil when off.
    public let push: PushSettings?

    public init(sms: SMSSettings, push: PushSettings = PushSettings()) {
        self.push = push.enabled ? push : nil
        state = Locked(Summary(smsEnabled: sms.enabled, lastText: nil, smsProblem: nil, textsThisMonth: 0, monthlyLimit: sms.monthlyLimit,
                               modem: nil, modemProblem: nil, pushEnabled: push.enabled, lastPush: nil, pushProblem: nil))
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

    /// The modem as last read; returns true when it could not be read and could before (or never was).
    func modemRead(_ reading: Result<ModemReading, SMSProblem>) -> Bool {
        state.withLock { summary in
            switch reading {
            case .success(let modem):
                summary.modem = modem
                summary.modemProblem = nil
                return false
            case .failure(let problem):
                defer { summary.modemProblem = problem.description }
                summary.modem = nil
                return summary.modemProblem == nil
            }
        }
    }

    func pushed(at time: Date) {
        state.withLock {
            $0.lastPush = time
            $0.pushProblem = nil
        }
    }

    /// True when this is news, as for texts.
    func pushFailed(_ problem: String) -> Bool {
        state.withLock { summary in
            defer { summary.pushProblem = problem }
            return summary.pushProblem == nil
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
