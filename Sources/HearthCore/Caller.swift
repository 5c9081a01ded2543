/// Who is making a request. Pairing fills this in from a device token; until
/// then every caller is an unpaired device on the household network.
public enum Caller: Sendable, Equatable {
    case unpaired

    /// How the caller is named in the change log's `actor` column.
    public var actorName: String {
        switch self {
        case .unpaired: "unpaired"
        }
    }
}
