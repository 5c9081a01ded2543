import CQREncode

/// How much of a QR code can be damaged and still read; more costs modules.
public enum ErrorCorrection: Sendable, CaseIterable {
    /// About 7% recoverable.
    case low
    /// About 15%: the default, a balance of size and robustness.
    case medium
    /// About 25%.
    case quartile
    /// About 30%.
    case high

    var level: QRecLevel {
        switch self {
        case .low: QR_ECLEVEL_L
        case .medium: QR_ECLEVEL_M
        case .quartile: QR_ECLEVEL_Q
        case .high: QR_ECLEVEL_H
        }
    }
}
