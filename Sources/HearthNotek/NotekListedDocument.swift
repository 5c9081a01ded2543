import Foundation

/// One entry of the hub's answer to a synclist: a document changed since the
/// client's last sync, and when.
public struct NotekListedDocument: Hashable, Sendable {
    public var lastModified: UInt64
    public var document: UUID

    public init(lastModified: UInt64, document: UUID) {
        self.lastModified = lastModified
        self.document = document
    }
}
