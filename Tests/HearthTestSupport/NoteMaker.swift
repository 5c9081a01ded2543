import Foundation
import HearthCore

extension PermissionPolicy.Actor {
    /// Someone making a note of her own in a test. The store makes a note
    /// only in its maker's name and asks nothing else of her (her role and
    /// links decide who else reads it, not whether she may write one).
    public static func noteMaker(_ personId: UUID) -> Self {
        Self(personId: personId, role: .caregiver)
    }
}
