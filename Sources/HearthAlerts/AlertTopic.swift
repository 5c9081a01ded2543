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

    /// The topics of a subscription's path (`sos,doses`), in the order
    /// given, or nil when any is not one of these.
    public static func list(_ text: String) -> [AlertTopic]? {
        let names = text.split(separator: ",", omittingEmptySubsequences: false)
        guard !names.isEmpty, names.count <= allCases.count else { return nil }
        var topics: [AlertTopic] = []
        for name in names {
            guard let topic = AlertTopic(rawValue: String(name)) else { return nil }
            if !topics.contains(topic) { topics.append(topic) }
        }
        return topics
    }

    /// The topic a message goes out under on a stream of several: the first
    /// that includes it, so a message and the one that clears it name the
    /// same topic and the app replaces the same notification.
    public static func first(of topics: [AlertTopic], including kind: CareAlert.Kind) -> AlertTopic? {
        topics.first { $0.includes(kind) }
    }
}
