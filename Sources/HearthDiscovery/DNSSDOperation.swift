import CDNSSD
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One request to the mDNS responder (a registration, a browse, a resolve or
/// a record query) and the thread that delivers its replies.
///
/// The DNS-SD API hands back a socket that turns readable when a reply is
/// waiting; `DNSServiceProcessResult` then calls the request's C callback.
/// A dedicated thread blocks in poll(2) on that socket and on a pipe that
/// `cancel()` writes to, so nothing spins and a cancel is prompt. That thread
/// is the only one to touch the `DNSServiceRef` after it is created, and it
/// deallocates it, so no callback can run during or after deallocation.
final class DNSSDOperation: @unchecked Sendable {
    // @unchecked: `ref` and the pipe's descriptors never change after init;
    // `ref` is used only by the pump thread; a write(2) to the pipe is safe
    // from any thread; `finished` is read and written only while holding
    // `finishedLock`. (Not Synchronization's Mutex: it needs macOS 15.)
    private let ref: DNSServiceRef
    private let context: Unmanaged<AnyObject>
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let description: String
    private let onBroken: @Sendable (DNSSDError) -> Void
    private var finished = Finished()
    private let finishedLock = NSLock()

    private struct Finished {
        var done = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    /// Starts a request. `start` calls the DNS-SD function, passing the
    /// given context pointer as the callback's context; `replies` (the object
    /// behind that pointer) is kept alive until no callback can come any more.
    /// `onBroken` hears, at most once, that the connection to the responder
    /// failed after the start.
    init(
        _ description: String,
        replies: AnyObject,
        onBroken: @escaping @Sendable (DNSSDError) -> Void,
        start: (UnsafeMutablePointer<DNSServiceRef?>, UnsafeMutableRawPointer) -> DNSServiceErrorType
    ) throws {
        DNSSDEnvironment.prepare()
        let context = Unmanaged<AnyObject>.passRetained(replies)
        var created: DNSServiceRef?
        let code = start(&created, context.toOpaque())
        guard code == DNSServiceErrorType(kDNSServiceErr_NoError), let created else {
            context.release()
            throw DNSSDError(code: code, operation: description)
        }
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else {
            DNSServiceRefDeallocate(created)
            context.release()
            throw DNSSDError(code: DNSServiceErrorType(kDNSServiceErr_NoMemory), operation: description)
        }
        self.ref = created
        self.context = context
        self.wakeRead = pipeEnds[0]
        self.wakeWrite = pipeEnds[1]
        self.description = description
        self.onBroken = onBroken
        let thread = Thread { [self] in pump() }
        thread.name = "hearth-dnssd"
        thread.start()
    }

    deinit {
        close(wakeRead)
        close(wakeWrite)
    }

    /// Ends the request (a registration is withdrawn from the network) and
    /// returns once the responder has let go of it, so a new request for the
    /// same name does not collide with this one.
    func cancel() async {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let alreadyDone = finishedLock.withLock {
                if finished.done { return true }
                finished.waiters.append(waiter)
                return false
            }
            if alreadyDone { waiter.resume() }
        }
    }

    private func pump() {
        let socket = DNSServiceRefSockFD(ref)
        var watching = socket >= 0
        if !watching {
            onBroken(DNSSDError(code: DNSServiceErrorType(kDNSServiceErr_Unknown), operation: description))
        }
        while true {
            var descriptors = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            if watching { descriptors.append(pollfd(fd: socket, events: Int16(POLLIN), revents: 0)) }
            let ready = poll(&descriptors, nfds_t(descriptors.count), -1)
            if ready < 0 {
                if errno == EINTR { continue }
                if watching {
                    onBroken(DNSSDError(code: DNSServiceErrorType(kDNSServiceErr_Unknown), operation: description))
                }
                break
            }
            if descriptors[0].revents != 0 { break }
            if watching, descriptors[1].revents != 0 {
                let code = DNSServiceProcessResult(ref)
                if code != DNSServiceErrorType(kDNSServiceErr_NoError) {
                    // The responder's connection is gone; stop watching its
                    // socket (it may stay readable) and wait to be cancelled.
                    watching = false
                    onBroken(DNSSDError(code: code, operation: description))
                }
            }
        }
        DNSServiceRefDeallocate(ref)
        context.release()
        let waiters = finishedLock.withLock {
            finished.done = true
            defer { finished.waiters = [] }
            return finished.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

/// Process-wide settings of Avahi's compatibility library, made once before
/// its first use.
enum DNSSDEnvironment {
    private static let prepared: Void = {
        // Avahi's compat library otherwise prints a warning to stderr on the
        // first call of every process, which would pollute the hub's logs.
        setenv("AVAHI_COMPAT_NOWARN", "1", 1)
    }()

    static func prepare() {
        _ = prepared
    }
}
