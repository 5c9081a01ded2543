import HearthCore

/// What a person wants on one phone, named as the alert app's topic: every
/// alert they may see, or only SOS, doses or stock. Which seniors' alerts
/// reach them is the permission policy's, never the topic's.
public enum AlertTopic: String, Sendable, Hashable, CaseIterable {
    case alerts, sos, doses, stock

    public func includes(_ kind: CareAlert.Kind) -> Bool {
        switch self {
        case .alerts: true
        case .sos: kind == .sos
        case .doses: kind == .doseDue || kind == .doseMissed
        case .stock: kind == .lowStock
        }
    }

    /// The topics of a subscription's path (`sos,doses`), or nil when any
    /// is not one of these; in the order a message picks its topic
    /// (`byPreference`), whatever order the path had.
    public static func list(_ text: String) -> [AlertTopic]? {
        let names = text.split(separator: ",", omittingEmptySubsequences: false)
        guard !names.isEmpty, names.count <= allCases.count else { return nil }
        var topics: Set<AlertTopic> = []
        for name in names {
            guard let topic = AlertTopic(rawValue: String(name)) else { return nil }
            topics.insert(topic)
        }
        return byPreference.filter(topics.contains)
    }

    /// The most particular topic first. The ntfy app opens one connection
    /// for all of a server's topics and names them in the order its
    /// notifications last arrived, which changes; a message and the one
    /// that replaces or clears it must name the same topic on every
    /// connection, or the app shows a second notification beside the first.
    static let byPreference: [AlertTopic] = [.sos, .doses, .stock, .alerts]

    /// The topic a message goes out under on a stream of several: the most
    /// particular one that includes it.
    public static func first(of topics: [AlertTopic], including kind: CareAlert.Kind) -> AlertTopic? {
        byPreference.first { topics.contains($0) && $0.includes(kind) }
    }
}
