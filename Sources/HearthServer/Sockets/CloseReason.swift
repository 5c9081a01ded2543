/// A WebSocket close reason cut to fit its frame.
///
/// A close frame is a control frame: at most 125 bytes, two of them the
/// code (RFC 6455 §5.5). A browser fails a connection whose close frame is
/// longer, and the page then sees 1006 and no reason at all, so a reason
/// built from what a client sent (an id, a decoding error) is cut here, on
/// a character boundary, rather than lost.
enum CloseReason {
    static let maximumBytes = 123

    static func fitting(_ text: String) -> String {
        guard text.utf8.count > maximumBytes else { return text }
        var reason = ""
        for character in text {
            guard reason.utf8.count + String(character).utf8.count <= maximumBytes else { break }
            reason.append(character)
        }
        return reason
    }
}
