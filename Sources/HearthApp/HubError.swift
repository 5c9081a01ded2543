/// Why the hub or an admin command could not do its work, told as one line.
public enum HubError: Error, CustomStringConvertible, Equatable {
    case addressInUse(host: String, port: Int)
    case alreadyServing(directory: String)
    case hubIsServing(directory: String)
    case cannotLock(path: String, reason: String)
    case noDatabase(directory: String)
    /// A file in the data directory that is a symlink or other non-file.
    case notAPlainFile(path: String)

    public var description: String {
        switch self {
        case .addressInUse(let host, let port):
            "cannot listen on \(host):\(port): another program is using that port (choose another with --port or http.port)"
        case .alreadyServing(let directory):
            "another hub is already serving \(directory)"
        case .hubIsServing(let directory):
            "a hub is serving \(directory); stop it first (sudo systemctl stop hearth)"
        case .cannotLock(let path, let reason):
            "cannot lock \(path): \(reason)"
        case .noDatabase(let directory):
            "there is no Hearth database in \(directory)"
        case .notAPlainFile(let path):
            "\(path) is not a plain file (a symlink?); refusing to open the data directory as it is. Remove it, then try again"
        }
    }
}
