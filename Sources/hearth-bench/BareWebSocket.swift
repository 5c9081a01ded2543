import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The client side of one WebSocket connection on a plain socket: the
/// upgrade, masked frames out, frames parsed from whatever has been read.
///
/// The relay benchmark runs fifty editors on the hub's own two cores. In a
/// household each of them is a separate phone; here their CPU competes
/// with the hub's. An async client costs tens of microseconds of task
/// switching per frame received, fifty times a keystroke, which the delays
/// would then include; this one is read by a single thread from epoll and
/// costs little more than the `read` itself.
final class BareWebSocket {
    struct Frame {
        let opcode: UInt8
        let payload: [UInt8]
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let descriptor: Int32
    private var received: [UInt8] = []
    private var start = 0
    /// Where `read` puts bytes, kept between reads: fifty listeners each
    /// zeroing a fresh buffer per keystroke would cost the hub's cores more
    /// than the reads do.
    private var chunk = [UInt8](repeating: 0, count: 16 * 1024)

    /// Connects to `127.0.0.1:port` and upgrades `path`, blocking until the
    /// hub has answered; the socket is then non-blocking.
    init(port: Int, path: String, token: String) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(descriptor)
            throw Failure(description: "connect: \(String(cString: strerror(errno)))")
        }
        var on: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        let key = Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\nAuthorization: Bearer \(token)\r\n\r\n"
        try writeAll(Array(request.utf8))
        // The answer's head, byte by byte up to its blank line, so no frame is read with it.
        var head: [UInt8] = []
        var byte: UInt8 = 0
        while !head.ends(with: [13, 10, 13, 10]) {
            guard read(descriptor, &byte, 1) == 1 else { throw Failure(description: "the hub closed during the upgrade") }
            head.append(byte)
        }
        guard String(decoding: head, as: UTF8.self).hasPrefix("HTTP/1.1 101") else {
            throw Failure(description: "upgrade refused: \(String(decoding: head, as: UTF8.self).prefix(40))")
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }

    deinit { close(descriptor) }

    /// Sends one masked frame (a client must mask what it sends).
    func send(_ payload: [UInt8], opcode: UInt8 = 0x2) throws {
        var frame: [UInt8] = [0x80 | opcode]
        switch payload.count {
        case ..<126: frame.append(0x80 | UInt8(payload.count))
        case ..<65_536: frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xff)]
        default: frame += [0x80 | 127] + (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xff) }
        }
        let mask = (0..<4).map { _ in UInt8.random(in: 0...255) }
        frame += mask
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        try writeAll(frame)
    }

    /// Reads whatever has arrived; false once the hub has closed the connection.
    func readAvailable() throws -> Bool {
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                received += chunk[0..<count]
            } else if count == 0 {
                return false
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                return true
            } else if errno != EINTR {
                throw Failure(description: "read: \(String(cString: strerror(errno)))")
            }
        }
    }

    /// The next whole frame read so far, if any (the hub does not mask).
    func nextFrame() -> Frame? {
        let available = received.count - start
        guard available >= 2 else { return compact() }
        let opcode = received[start] & 0x0f
        var length = Int(received[start + 1] & 0x7f)
        var offset = start + 2
        if length == 126 {
            guard available >= 4 else { return compact() }
            length = Int(received[start + 2]) << 8 | Int(received[start + 3])
            offset += 2
        } else if length == 127 {
            guard available >= 10 else { return compact() }
            length = (0..<8).reduce(0) { $0 << 8 | Int(received[start + 2 + $1]) }
            offset += 8
        }
        guard received.count >= offset + length else { return compact() }
        start = offset + length
        return Frame(opcode: opcode, payload: Array(received[offset..<start]))
    }

    /// Drops the frames already returned; returns nil for `nextFrame`.
    private func compact() -> Frame? {
        if start > 0 {
            received.removeFirst(start)
            start = 0
        }
        return nil
    }

    private func writeAll(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                sent += count
            } else if count < 0, errno == EAGAIN || errno == EINTR {
                var poller = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                _ = poll(&poller, 1, 100)
            } else {
                throw Failure(description: "write: \(String(cString: strerror(errno)))")
            }
        }
    }
}

extension Array where Element == UInt8 {
    fileprivate func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}
