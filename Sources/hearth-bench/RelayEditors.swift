import Foundation
import HearthCore
import HearthCRDT
#if canImport(Glibc)
import Glibc
#endif

/// The editors of the relay benchmark: one typist and many listeners in the
/// same note, each a `BareWebSocket`, the listeners all read by one thread.
///
/// A keystroke's time is taken just before its frame is written, and its
/// arrival just after `poll` says a listener's socket has something to
/// read; the two are matched by the operation's counter once all is done,
/// so nothing is shared between the threads while the clock runs.
struct RelayEditors: Sendable {
    let port: Int
    let path: String
    let token: String
    let listeners: Int
    let characters: Int
    let perSecond: Int
    /// The hub's process, whose memory is read once every listener has
    /// received every keystroke, before any connection closes.
    let hub: Int32

    struct Outcome: Sendable {
        var sent: [UInt64: ContinuousClock.Instant]
        var arrivals: [RelayBenchmark.Arrival]
        var hubMemory: (resident: Int, dirty: Int)
    }

    typealias Failure = BareWebSocket.Failure

    static let hello: [UInt8] = [1, 0x01] + VersionVector().encoded()
    static let normalClosure: [UInt8] = [0x03, 0xe8]

    /// Runs the editors on threads of their own and returns what they saw.
    func run() async throws -> Outcome {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Result { try listenAndType() })
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    private func listenAndType() throws -> Outcome {
        let clock = ContinuousClock()
        let sockets = try (0..<listeners).map { _ in try BareWebSocket(port: port, path: path, token: token) }
        for socket in sockets { try socket.send(Self.hello) }
        var polled = sockets.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
        var synced = 0, finished = 0
        var received = [Int](repeating: 0, count: listeners)
        var arrivals: [RelayBenchmark.Arrival] = []
        arrivals.reserveCapacity(listeners * characters)
        let typist = Typist(editors: self, clock: clock)
        var quietSeconds = 0
        while finished < listeners {
            let ready = poll(&polled, nfds_t(polled.count), 1000)
            let now = clock.now
            if ready < 0, errno == EINTR { continue }
            guard ready >= 0 else { throw Failure(description: "poll: \(String(cString: strerror(errno)))") }
            if ready == 0 {
                quietSeconds += 1
                if let failure = typist.failure { throw failure }
                guard quietSeconds < 30 else { throw Failure(description: "the listeners heard nothing for 30 s") }
                continue
            }
            quietSeconds = 0
            for index in polled.indices where polled[index].revents != 0 {
                let socket = sockets[index]
                let open = try socket.readAvailable()
                while let frame = socket.nextFrame() {
                    if frame.opcode == 0x9 { try socket.send(frame.payload, opcode: 0xa) }
                    guard frame.opcode == 0x2, frame.payload.count >= 2 else { continue }
                    switch frame.payload[1] {
                    case 0x12:
                        synced += 1
                        if synced == listeners { typist.start() }
                    case 0x02:
                        for operation in try NoteOperation.decode(Array(frame.payload[2...])) {
                            arrivals.append(RelayBenchmark.Arrival(counter: operation.id.counter, at: now))
                            received[index] += 1
                        }
                        if received[index] == characters { finished += 1 }
                    default:
                        break
                    }
                }
                if !open, received[index] < characters {
                    throw Failure(description: "the hub closed a listener's connection after \(received[index]) keystrokes")
                }
            }
        }
        let memory = try RelayBenchmark.hubMemory(pid: hub)
        for socket in sockets { try? socket.send(Self.normalClosure, opcode: 0x8) }
        let sent = try typist.finish()
        return Outcome(sent: sent, arrivals: arrivals, hubMemory: memory)
    }
}

/// Types at the end of the note, `perSecond` characters a second, on a
/// thread of its own.
private final class Typist: @unchecked Sendable {
    // @unchecked: `sent` and `error` are written only by the typist's
    // thread and read after `done` has been signalled by it.
    private let editors: RelayEditors
    private let clock: ContinuousClock
    private let done = DispatchSemaphore(value: 0)
    private var sent: [UInt64: ContinuousClock.Instant] = [:]
    private var error: (any Error)?
    private let stopped = Locked(false)

    init(editors: RelayEditors, clock: ContinuousClock) {
        self.editors = editors
        self.clock = clock
    }

    func start() {
        let thread = Thread { [self] in
            do {
                try type()
            } catch {
                self.error = error
            }
            stopped.withLock { $0 = true }
            done.signal()
        }
        thread.start()
    }

    /// The typist's error, once it has stopped.
    var failure: (any Error)? { stopped.withLock { $0 } ? error : nil }

    func finish() throws -> [UInt64: ContinuousClock.Instant] {
        done.wait()
        if let error { throw error }
        return sent
    }

    private func type() throws {
        let socket = try BareWebSocket(port: editors.port, path: editors.path, token: editors.token)
        try socket.send(RelayEditors.hello)
        var note: NoteText?
        var synced = false
        while !synced {
            var polled = pollfd(fd: socket.descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&polled, 1, 10_000) > 0, try socket.readAvailable() else {
                throw RelayEditors.Failure(description: "the typist was not sent the note")
            }
            while let frame = socket.nextFrame() {
                guard frame.opcode == 0x2, frame.payload.count >= 2 else { continue }
                if frame.payload[1] == 0x11 { note = try NoteText.decodeState(Array(frame.payload[2...]), replica: 424_242) }
                if frame.payload[1] == 0x12 { synced = true }
            }
        }
        guard let note else { throw RelayEditors.Failure(description: "the hub sent the typist no state") }
        let text = Array("Zakupy: mleko, chleb, masło, jajka, pomidory, ser żółty. ")
        let interval = Duration.seconds(1) / editors.perSecond
        var next = clock.now
        for index in 0..<editors.characters {
            next += interval
            let wait = next - clock.now
            if wait > .zero { usleep(useconds_t(wait / .microseconds(1))) }
            let operation = try note.insert(String(text[index % text.count]), at: note.count)
            let frame = [UInt8(1), 0x02] + NoteOperation.encode([operation])
            sent[operation.id.counter] = clock.now
            try socket.send(frame)
            // Acknowledgements pile up otherwise.
            _ = try socket.readAvailable()
            while socket.nextFrame() != nil {}
        }
        usleep(500_000)
        try socket.send(RelayEditors.normalClosure, opcode: 0x8)
    }
}
