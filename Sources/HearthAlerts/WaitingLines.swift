import Foundation
import HearthCore

/// The lines waiting for the hub's speaker, said one at a time, oldest
/// first. While the speaker is busy at most `limit` wait: when more come,
/// the oldest line that is not urgent is dropped, so a backlog of doses
/// never talks for minutes — but an SOS or its answer is never dropped.
final class WaitingLines: Sendable {
    private struct State {
        var lines: [HubVoice.Line] = []
        var listener: CheckedContinuation<HubVoice.Line?, Never>?
        var finished = false
    }
    private let state = Locked(State())
    let limit: Int

    init(limit: Int = 4) {
        self.limit = limit
    }

    func add(_ line: HubVoice.Line) {
        let listener = state.withLock { state -> CheckedContinuation<HubVoice.Line?, Never>? in
            guard !state.finished else { return nil }
            if let listener = state.listener {
                state.listener = nil
                return listener
            }
            state.lines.append(line)
            if state.lines.count > limit, let oldest = state.lines.firstIndex(where: { !$0.isUrgent }) {
                state.lines.remove(at: oldest)
            }
            return nil
        }
        listener?.resume(returning: line)
    }

    /// The next line to say, waiting for one; nil once finished.
    func next() async -> HubVoice.Line? {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> HubVoice.Line?? in
                if !state.lines.isEmpty { return .some(state.lines.removeFirst()) }
                if state.finished { return .some(nil) }
                state.listener = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// No more lines: the one waiting for a line is told so.
    func finish() {
        let listener = state.withLock { state -> CheckedContinuation<HubVoice.Line?, Never>? in
            state.finished = true
            defer { state.listener = nil }
            return state.listener
        }
        listener?.resume(returning: nil)
    }

    var count: Int { state.withLock { $0.lines.count } }
}
