import ServiceLifecycle

/// Keeps systemd's watchdog fed (`WATCHDOG=1` every half `WatchdogSec`) and
/// says `STOPPING=1` as soon as a graceful shutdown begins. Added to the
/// service group only when systemd started the hub with a notify socket;
/// listed last, so it is the first service asked to stop and systemd hears
/// STOPPING at once. The others then have at most the group's few seconds of
/// graceful shutdown, far less than any sensible watchdog interval.
struct SystemdNotifyService: Service {
    let notifier: SystemdNotifier

    func run() async throws {
        let notifier = self.notifier
        await withGracefulShutdownHandler {
            do {
                try await cancelWhenGracefulShutdown {
                    guard let interval = notifier.watchdogInterval else {
                        try await gracefulShutdown()
                        return
                    }
                    while true {
                        notifier.notify("WATCHDOG=1")
                        try await Task.sleep(for: interval)
                    }
                }
            } catch {
                // Cancelled or shutting down: there is nothing left to tell systemd but STOPPING.
            }
        } onGracefulShutdown: {
            notifier.notify("STOPPING=1")
        }
    }
}
