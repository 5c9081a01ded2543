/// Keeps the hub's services announced on the LAN for as long as `run` runs.
///
/// When the mDNS responder is missing, or goes away later, the hub must keep
/// serving: the advertiser reports that it is waiting, tries again after
/// 1 s, 2 s, 4 s … up to 60 s, and starts from 1 s again once everything
/// is announced. Cancelling `run` withdraws the services.
public struct Advertiser: Sendable {
    public enum Event: Sendable, Equatable {
        /// Every advertisement is announced, under these names (in the order
        /// of `advertisements`).
        case advertising(names: [String])
        /// Not (or no longer) announced, for `reason`; the next try is in `retryIn`.
        case waiting(reason: String, retryIn: Duration)
    }

    public var advertisements: [Advertisement]
    public var retryDelay: RetryDelay

    public init(advertisements: [Advertisement], retryDelay: RetryDelay = RetryDelay()) {
        self.advertisements = advertisements
        self.retryDelay = retryDelay
    }

    public func run(report: @escaping @Sendable (Event) -> Void) async {
        var delay = retryDelay
        while !Task.isCancelled {
            let attempt = await advertiseUntilLost(report: report)
            guard !Task.isCancelled else { return }
            if attempt.wasAdvertising { delay.reset() }
            let wait = delay.take()
            report(.waiting(reason: attempt.reason, retryIn: wait))
            try? await Task.sleep(for: wait)
        }
    }

    private struct Attempt {
        var reason: String
        var wasAdvertising: Bool
    }

    /// Registers every advertisement and waits until one of them is lost
    /// (or the task is cancelled); always withdraws them all before returning.
    private func advertiseUntilLost(report: @Sendable (Event) -> Void) async -> Attempt {
        let (replies, continuation) = AsyncStream.makeStream(of: (Int, ServiceRegistration.Reply).self)
        var registrations: [ServiceRegistration] = []
        let attempt: Attempt
        do {
            for (index, advertisement) in advertisements.enumerated() {
                registrations.append(try ServiceRegistration(advertisement) { reply in
                    continuation.yield((index, reply))
                })
            }
            attempt = await waitUntilLost(replies, report: report)
        } catch {
            attempt = Attempt(reason: "\(error)", wasAdvertising: false)
        }
        continuation.finish()
        for registration in registrations {
            await registration.cancel()
        }
        return attempt
    }

    private func waitUntilLost(
        _ replies: AsyncStream<(Int, ServiceRegistration.Reply)>, report: @Sendable (Event) -> Void
    ) async -> Attempt {
        var names = [String?](repeating: nil, count: advertisements.count)
        var advertising = false
        for await (index, reply) in replies {
            switch reply {
            case .registered(let name):
                names[index] = name
                if !advertising, names.allSatisfy({ $0 != nil }) {
                    advertising = true
                    report(.advertising(names: names.compactMap { $0 }))
                }
            case .lost(let error):
                return Attempt(reason: error?.description ?? "the mDNS responder (avahi-daemon) went away",
                               wasAdvertising: advertising)
            }
        }
        return Attempt(reason: "stopped", wasAdvertising: advertising)
    }
}
