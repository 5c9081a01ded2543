import CompressNIO
import HTTPTypes
import Hummingbird
import NIOCore

/// Gzips JSON answers of a kilobyte or more for clients that accept gzip
/// (browsers, URLSession and HearthKit all do, and undo it on their own).
/// A device's first sync of years of dose history is the same keys over and
/// over; gzip sends about a tenth of it, and on a Pi's Wi-Fi the bytes are
/// most of the wait. Small answers are left alone: there is nothing to win.
struct CompressionMiddleware<Context: RequestContext>: RouterMiddleware {
    static var minimumSize: Int { 1024 }
    /// zlib's fastest level: JSON's repetition is caught at any level, and
    /// on a Pi the hub's time matters more than the last few per cent.
    static var configuration: ZlibConfiguration { ZlibConfiguration(compressionLevel: .fastestCompression) }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        guard request.method != .head, response.headers[.contentEncoding] == nil,
              MediaType.isJSON(response.headers[.contentType]),
              let length = response.body.contentLength, length >= Self.minimumSize
        else { return response }
        // Whether gzipped or not, the answer depends on Accept-Encoding.
        response.headers[.vary] = "Accept-Encoding"
        guard Self.acceptsGzip(request.headers[values: .acceptEncoding]) else { return response }
        let collector = BodyCollector(capacity: length)
        let body = response.body
        try await body.write(collector)
        var plain = collector.box.buffer
        let compressed = try plain.compress(with: .gzip, configuration: Self.configuration)
        response.headers[.contentEncoding] = "gzip"
        response.headers[.contentLength] = String(compressed.readableBytes)
        response.body = ResponseBody(byteBuffer: compressed)
        return response
    }

    /// Whether any Accept-Encoding value names gzip (or `*`) with a quality above 0.
    static func acceptsGzip(_ values: [String]) -> Bool {
        for item in values.flatMap({ $0.split(separator: ",") }) {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let coding = parts.first, coding == "gzip" || coding == "x-gzip" || coding == "*" else { continue }
            let quality = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            if quality > 0 { return true }
        }
        return false
    }
}

/// Takes a response body's buffers, as the server would write them.
private struct BodyCollector: ResponseBodyWriter {
    final class Box {
        var buffer: ByteBuffer
        init(capacity: Int) { buffer = ByteBufferAllocator().buffer(capacity: capacity) }
    }

    let box: Box

    init(capacity: Int) { box = Box(capacity: capacity) }

    mutating func write(_ buffer: ByteBuffer) async throws {
        var buffer = buffer
        box.buffer.writeBuffer(&buffer)
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
