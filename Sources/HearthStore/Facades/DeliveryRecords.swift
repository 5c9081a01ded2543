import Foundation
import HearthCore

/// What the delivery recorder needs of the store: a place to keep where
/// alerts went, a second's worth at a time. `HearthStore` is it; a test
/// gives the recorder a stand-in whose disk fails, to see nothing is lost.
public protocol DeliveryRecords: Sendable {
    /// `HearthStore.recordDeliveries`: one write for them all, outside the change log.
    func recordDeliveries(_ deliveries: [(alertId: UUID, delivery: AlertDelivery)]) async throws
}

extension HearthStore: DeliveryRecords {}
