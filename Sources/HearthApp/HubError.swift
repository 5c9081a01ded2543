/// Why the hub could not run, told as one line for the admin.
public enum HubError: Error, CustomStringConvertible, Equatable {
    case addressInUse(host: String, port: Int)

    public var description: String {
        switch self {
        case .addressInUse(let host, let port):
            "cannot listen on \(host):\(port): another program is using that port (choose another with --port or http.port)"
        }
    }
}
