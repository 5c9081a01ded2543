import HearthServer
import ServiceLifecycle

/// Ends the Notek clients' connections to open notes when the hub begins to
/// stop, so the Notek listener's graceful shutdown is not held open by
/// clients that would otherwise edit on. Listed after the listener in the
/// service group, so it is told to stop first.
struct NotekNotesService: Service {
    let openNotes: NotekListener.OpenNotes

    func run() async throws {
        try? await gracefulShutdown()
        await openNotes.closeAll()
    }
}
